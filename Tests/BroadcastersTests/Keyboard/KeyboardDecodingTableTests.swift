import Broadcasters
import EventBus
import Foundation
import Testing

/// A value of one kind that a poster might put under a `userInfo` key, right or wrong.
enum PayloadKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case missing, intFive, intZero, intOne, int8Three, uint64Max, floatTwo, doubleOneAndAHalf, doubleTwo, doubleNaN
  case doubleInfinity, boolTrue, boolFalse, cgFloatOne, string, numberInt, numberDouble, numberBool, numberBoolFalse
  case numberUInt64Max, decimalOne, decimalZero, decimalQuarter, decimalNumberOne, decimalHuge, decimalNaN
  case boxedRect, boxedPoint, boxedSize, boxedRange, boxedBytes, abstractBoxSubclass
  case cgRect, cgPoint, cgSize, date, data, array, dictionary, null, url, object

  var testDescription: String { rawValue }

  /// The value, or `nil` for a missing key.
  func make() -> Any? {
    switch self {
    case .missing: nil
    case .intFive: 5
    case .intZero: 0
    case .intOne: 1
    case .int8Three: Int8(3)
    case .uint64Max: UInt64.max
    case .floatTwo: Float(2)
    case .doubleOneAndAHalf: 1.5
    case .doubleTwo: 2.0
    case .doubleNaN: Double.nan
    case .doubleInfinity: Double.infinity
    case .boolTrue: true
    case .boolFalse: false
    case .cgFloatOne: CGFloat(1)
    case .string: "0 0 390 300"
    case .numberInt: NSNumber(value: 7)
    case .numberDouble: NSNumber(value: 0.25)
    case .numberBool: NSNumber(value: true)
    case .numberBoolFalse: NSNumber(value: false)
    case .numberUInt64Max: NSNumber(value: UInt64.max)
    case .decimalOne: Decimal(1)
    case .decimalZero: Decimal(0)
    case .decimalQuarter: Decimal(string: "0.25")!
    case .decimalNumberOne: NSDecimalNumber(value: 1)
    case .decimalHuge: NSDecimalNumber(string: "1e100")
    case .decimalNaN: NSDecimalNumber.notANumber
    case .boxedRect: Self.rectValue
    case .boxedPoint: NSValue(point: CGPoint(x: 1, y: 2))
    case .boxedSize: NSValue(size: CGSize(width: 1, height: 2))
    case .boxedRange: NSValue(range: NSRange(location: 1, length: 2))
    case .boxedBytes: Self.boxedBytes()
    case .abstractBoxSubclass: AbstractBox()
    case .cgRect: Self.rect
    case .cgPoint: CGPoint(x: 1, y: 2)
    case .cgSize: CGSize(width: 1, height: 2)
    case .date: Date(timeIntervalSince1970: 0)
    case .data: Data([1, 2, 3])
    case .array: [1, 2, 3]
    case .dictionary: ["x": 1]
    case .null: NSNull()
    case .url: URL(fileURLWithPath: "/tmp")
    case .object: NSObject()
    }
  }

  static let rect = CGRect(x: 0, y: 500, width: 390, height: 300)

  static var rectValue: NSValue {
    #if os(iOS) || os(tvOS) || os(visionOS)
      NSValue(cgRect: rect)
    #else
      NSValue(rect: rect)
    #endif
  }

  /// A boxed byte buffer of a rect's size that is not a rect: four doubles.
  static func boxedBytes() -> NSValue {
    var doubles: (Double, Double, Double, Double) = (0, 500, 390, 300)
    return withUnsafeBytes(of: &doubles) { NSValue(bytes: $0.baseAddress!, objCType: "[4d]") }
  }

  /// The number the value stands for, if it is a binary number: not a Boolean, not a decimal.
  var number: Double? {
    switch self {
    case .intFive: 5
    case .intZero: 0
    case .intOne, .cgFloatOne: 1
    case .int8Three: 3
    case .uint64Max, .numberUInt64Max: Double(UInt64.max)
    case .floatTwo, .doubleTwo: 2
    case .doubleOneAndAHalf: 1.5
    case .doubleNaN: .nan
    case .doubleInfinity: .infinity
    case .numberInt: 7
    case .numberDouble: 0.25
    default: nil
    }
  }

  /// The value of a Boolean, Swift or boxed in an `NSNumber`.
  var boolean: Bool? {
    switch self {
    case .boolTrue, .numberBool: true
    case .boolFalse, .numberBoolFalse: false
    default: nil
    }
  }
}

/// An `NSValue` subclass that implements nothing: Foundation traps if it is asked for its type encoding.
final class AbstractBox: NSValue, @unchecked Sendable {}

/// The keys of a keyboard notification and what each must hold.
enum KeyboardKey: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case animationCurve, animationDuration, isLocal, frameBegin, frameEnd

  var testDescription: String { rawValue }

  var name: String {
    typealias Key = KeyboardNotification.UserInfoKey
    return switch self {
    case .animationCurve: Key.animationCurve
    case .animationDuration: Key.animationDuration
    case .isLocal: Key.isLocal
    case .frameBegin: Key.frameBegin
    case .frameEnd: Key.frameEnd
    }
  }

  var expectedType: String {
    switch self {
    case .animationCurve: "Int"
    case .animationDuration: "Double"
    case .isLocal: "Bool"
    case .frameBegin, .frameEnd: "CGRect"
    }
  }

  /// Whether a value of `kind` under this key decodes. A Boolean is not a number, and a decimal (`Decimal`,
  /// `NSDecimalNumber`) is neither a number nor a Boolean, although both cast to every number type.
  func accepts(_ kind: PayloadKind) -> Bool {
    switch self {
    case .animationCurve:
      guard let number = kind.number else { return false }
      return Int(exactly: number) != nil
    case .animationDuration:
      return kind.number != nil
    case .isLocal:
      return kind.boolean != nil || kind.number == 0 || kind.number == 1
    case .frameBegin, .frameEnd:
      return kind == .boxedRect || kind == .cgRect
    }
  }
}

@Suite struct KeyboardDecodingTableTests {
  /// A valid keyboard `userInfo` with `kind` under `key` (or `key` removed).
  static func userInfo(with kind: PayloadKind, under key: KeyboardKey) -> [AnyHashable: Any] {
    var userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    userInfo[key.name] = kind.make()
    return userInfo
  }

  @Test(arguments: KeyboardKey.allCases, PayloadKind.allCases)
  func everyValueUnderEveryKeyDecodesOrFailsNamingTheKey(key: KeyboardKey, kind: PayloadKind) throws {
    let userInfo = Self.userInfo(with: kind, under: key)
    guard key.accepts(kind) else {
      let failure = #expect(throws: DecodeFailure.self) { try KeyboardUserInfo(userInfo: userInfo) }
      #expect(failure?.key == key.name)
      if kind == .missing {
        #expect(failure?.reason == .missingKey)
      } else if case .wrongType(let expected, _) = failure?.reason {
        #expect(expected == key.expectedType)
      } else {
        Issue.record("expected a wrong-type failure, got \(String(describing: failure))")
      }
      return
    }
    let info = try KeyboardUserInfo(userInfo: userInfo)
    if let boolean = kind.boolean {
      #expect(key == .isLocal && info.isLocal == boolean)
      return
    }
    let number = try #require(kind.number ?? (kind == .boxedRect || kind == .cgRect ? 0 : nil))
    switch key {
    case .animationCurve: #expect(Double(info.animationCurve.rawValue) == number)
    case .animationDuration:
      #expect(info.animationDuration == number || (number.isNaN && info.animationDuration.isNaN))
    case .isLocal: #expect(info.isLocal == (number == 1))
    case .frameBegin: #expect(info.beginFrame == PayloadKind.rect)
    case .frameEnd: #expect(info.endFrame == PayloadKind.rect)
    }
  }

  /// A decoded keyboard event under a type of this suite's own, so that these parallel cases do not show in the
  /// live-object counts that the keyboard broadcaster's tests take of `KeyboardEvent`.
  struct Decoded: Sendable, Equatable {
    let event: KeyboardEvent
  }

  @Test(arguments: KeyboardKey.allCases, PayloadKind.allCases)
  func theBroadcasterCountsAndReportsEveryBadValueAndKeepsDelivering(key: KeyboardKey, kind: PayloadKind) {
    let center = NotificationCenter()
    // The keyboard broadcaster's own decode step, `KeyboardEvent(notification:)`, on a broadcaster of `Decoded`.
    let keyboard = Broadcaster(
      source: NotificationSource(names: KeyboardNotification.all, center: center) { notification in
        Decoded(event: try KeyboardEvent(notification: notification))
      })
    let failures = Log<DecodeFailure>()
    keyboard.onDecodeFailure = { failures.append($0) }
    let delivered = Log<Decoded>()
    let token = keyboard.subscribe { delivered.append($0) }
    center.post(
      name: KeyboardNotification.willShow, object: nil, userInfo: Self.userInfo(with: kind, under: key))
    let good = KeyboardEvent.didShow(.rising(to: 300))
    center.post(good)
    if key.accepts(kind) {
      #expect(keyboard.decodeFailureCount == 0)
      #expect(delivered.count == 2)
    } else {
      #expect(keyboard.decodeFailureCount == 1)
      #expect(failures.elements.map(\.key) == [key.name])
      #expect(failures.elements.map(\.name) == [KeyboardNotification.willShow.rawValue])
      #expect(delivered.elements == [Decoded(event: good)])
    }
    token.cancel()
  }

  @Test(arguments: PayloadKind.allCases)
  func aWholeUserInfoOfOneKindFailsAtTheFirstKeyInDecodingOrder(kind: PayloadKind) {
    var userInfo: [AnyHashable: Any] = [:]
    for key in KeyboardKey.allCases {
      userInfo[key.name] = kind.make()
    }
    userInfo["UnrelatedKey"] = kind.make()
    let notification = Notification(name: KeyboardNotification.willHide, object: nil, userInfo: userInfo)
    // The keys are declared in the order the decoder reads them; no kind fits both a number and a frame key.
    let firstRejecting = KeyboardKey.allCases.first { !$0.accepts(kind) }
    let failure = #expect(throws: DecodeFailure.self) { try KeyboardEvent(notification: notification) }
    #expect(failure?.key == firstRejecting?.name)
    #expect(failure?.name == KeyboardNotification.willHide.rawValue)
  }

  @Test func aNotificationWithoutUserInfoIsAFailure() {
    let notification = Notification(name: KeyboardNotification.willHide, object: nil)
    #expect(throws: DecodeFailure(name: KeyboardNotification.willHide.rawValue, reason: .other("no userInfo"))) {
      try KeyboardEvent(notification: notification)
    }
  }
}
