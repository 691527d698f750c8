// A libFuzzer target for the notification payload decoders: it builds `userInfo` dictionaries from the fuzzer's bytes
// (the real keyboard keys and random ones; numbers, Booleans, decimals, strings, dates, data, arrays, dictionaries,
// NSNull, NSNumbers and NSValues of every shape) and feeds them to `KeyboardUserInfo(userInfo:)`,
// `KeyboardEvent(notification:)` and a connected `KeyboardBroadcaster`. Decoding must never trap, a payload that
// decodes must hold no Boolean or decimal under a number key, and every posted notification must be either delivered
// or reported as a decode failure. Built and run by Scripts/fuzz.sh.

import Broadcasters
import EventBus
import Foundation

/// Reads the fuzzer's bytes front to back; past the end, every read is zero.
struct ByteReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { offset >= bytes.count }

  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func uint64() -> UInt64 {
    (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
  }

  mutating func double() -> Double {
    // Half the time a plain small value, so ordinary numbers are as likely as NaN, infinities and denormals.
    byte() & 1 == 0 ? Double(Int8(bitPattern: byte())) / 4 : Double(bitPattern: uint64())
  }

  mutating func string() -> String {
    let count = Int(byte() % 24)
    return String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self)
  }
}

/// The keyboard keys, the decoders' real key set.
let realKeys = [
  KeyboardNotification.UserInfoKey.animationCurve, KeyboardNotification.UserInfoKey.animationDuration,
  KeyboardNotification.UserInfoKey.isLocal, KeyboardNotification.UserInfoKey.frameBegin,
  KeyboardNotification.UserInfoKey.frameEnd,
]

/// Type encodings `NSValue(bytes:objCType:)` accepts, with the number of bytes each reads.
let encodings: [(encoding: String, size: Int)] = [
  ("i", 4), ("q", 8), ("d", 8), ("c", 1), ("[4d]", 32), ("[2q]", 16), ("{CGPoint=dd}", 16), ("{CGSize=dd}", 16),
  ("{CGRect={CGPoint=dd}{CGSize=dd}}", 32), ("{_NSRange=QQ}", 16),
]

func makeKey(_ reader: inout ByteReader) -> AnyHashable {
  switch reader.byte() % 8 {
  case 0..<5: AnyHashable(realKeys[Int(reader.byte()) % realKeys.count])
  case 5: AnyHashable(reader.string())
  case 6: AnyHashable(Int(Int8(bitPattern: reader.byte())))
  default: AnyHashable(realKeys[Int(reader.byte()) % realKeys.count] + reader.string())
  }
}

func makeValue(_ reader: inout ByteReader, depth: Int = 0) -> Any {
  switch reader.byte() % 27 {
  case 0: return Int(bitPattern: UInt(reader.uint64()))
  case 1: return Int(Int8(bitPattern: reader.byte()))
  case 2: return reader.double()
  case 3: return Float(reader.double())
  case 4: return reader.byte() & 1 == 1
  case 5: return reader.uint64()
  case 6: return CGFloat(reader.double())
  case 7: return reader.string()
  case 8: return NSNumber(value: reader.double())
  case 9: return NSNumber(value: Int64(bitPattern: reader.uint64()))
  case 10: return NSNumber(value: reader.byte() & 1 == 1)
  case 11: return NSNumber(value: reader.uint64())
  case 12: return NSDecimalNumber(string: reader.string())
  case 13: return NSValue(point: CGPoint(x: reader.double(), y: reader.double()))
  case 14: return NSValue(size: CGSize(width: reader.double(), height: reader.double()))
  case 15: return NSValue(rect: CGRect(x: reader.double(), y: reader.double(), width: reader.double(), height: 1))
  case 16: return NSValue(range: NSRange(location: Int(reader.byte()), length: Int(reader.byte())))
  case 17:
    let (encoding, size) = encodings[Int(reader.byte()) % encodings.count]
    let bytes = (0..<size).map { _ in reader.byte() }
    return bytes.withUnsafeBytes { NSValue(bytes: $0.baseAddress!, objCType: encoding) }
  case 18: return CGRect(x: reader.double(), y: reader.double(), width: reader.double(), height: reader.double())
  case 19: return CGPoint(x: reader.double(), y: reader.double())
  case 20: return Date(timeIntervalSince1970: reader.double())
  case 21: return Data((0..<Int(reader.byte() % 16)).map { _ in reader.byte() })
  case 22:
    guard depth < 3 else { return NSNull() }
    return (0..<Int(reader.byte() % 4)).map { _ in makeValue(&reader, depth: depth + 1) }
  case 23:
    guard depth < 3 else { return NSNull() }
    var dictionary: [AnyHashable: Any] = [:]
    for _ in 0..<Int(reader.byte() % 4) {
      dictionary[makeKey(&reader)] = makeValue(&reader, depth: depth + 1)
    }
    return dictionary
  case 24: return NSNull()
  case 25: return Decimal(Int(Int8(bitPattern: reader.byte()))) / 4
  default: return NSObject()
  }
}

/// The keys that hold numbers, where neither a Boolean nor a decimal may decode.
let numberKeys = [
  KeyboardNotification.UserInfoKey.animationCurve, KeyboardNotification.UserInfoKey.animationDuration,
]

/// The class Foundation gives every Boolean `NSNumber`, a bridged Swift `Bool` included.
let booleanNumberClass = ObjectIdentifier(type(of: NSNumber(value: true)))

func isBooleanOrDecimal(_ value: Any?) -> Bool {
  guard let value else { return false }
  if value is Decimal || value is NSDecimalNumber { return true }
  guard let number = value as? NSNumber else { return false }
  return ObjectIdentifier(type(of: number)) == booleanNumberClass
}

/// A valid keyboard `userInfo`, so that most inputs change a few keys of a payload that would otherwise decode.
let validInfo = KeyboardUserInfo(beginFrame: .zero, endFrame: CGRect(x: 0, y: 500, width: 390, height: 300))

/// One broadcaster for the whole run, as in an app: decode failures must not disturb later notifications.
final class Harness: Sendable {
  static let shared = Harness()

  let center = NotificationCenter()
  let keyboard: KeyboardBroadcaster
  let delivered = LockedState(0)
  let reported = LockedState(0)
  let subscription: EventSubscription

  private init() {
    let delivered = delivered
    let reported = reported
    keyboard = KeyboardBroadcaster(center: center)
    subscription = keyboard.subscribe { _ in delivered.withLock { $0 += 1 } }
    keyboard.onDecodeFailure = { _ in reported.withLock { $0 += 1 } }
  }

  /// What the subscriber received, what the hook reported and what the broadcaster counted.
  var counts: (delivered: Int, reported: Int, counted: Int) {
    (delivered.withLock { $0 }, reported.withLock { $0 }, keyboard.decodeFailureCount)
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let harness = Harness.shared
  var reader = ByteReader(UnsafeBufferPointer(start: data, count: size))
  var userInfo = reader.byte() & 1 == 0 ? validInfo.userInfo : [:]
  while !reader.isAtEnd, userInfo.count < 12 {
    if reader.byte() % 5 == 0 {
      userInfo[makeKey(&reader)] = nil
    } else {
      userInfo[makeKey(&reader)] = makeValue(&reader)
    }
  }

  let decoded = try? KeyboardUserInfo(userInfo: userInfo)
  let name = KeyboardNotification.all[Int(size) % KeyboardNotification.all.count]
  let event = try? KeyboardEvent(notification: Notification(name: name, object: nil, userInfo: userInfo))
  guard (decoded == nil) == (event == nil) else {
    fatalError("KeyboardUserInfo and KeyboardEvent disagree on \(userInfo)")
  }
  if decoded != nil, let key = numberKeys.first(where: { isBooleanOrDecimal(userInfo[$0]) }) {
    fatalError("decoded a Boolean or a decimal under \(key) as a number: \(userInfo)")
  }

  let before = harness.counts
  harness.center.post(name: name, object: nil, userInfo: userInfo)
  let after = harness.counts
  let expected = decoded == nil ? (before.0, before.1 + 1, before.2 + 1) : (before.0 + 1, before.1, before.2)
  guard after == expected else {
    fatalError("posting \(userInfo): delivered/reported/counted \(before) -> \(after), expected \(expected)")
  }
  return 0
}
