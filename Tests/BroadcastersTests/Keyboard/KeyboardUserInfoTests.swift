import Broadcasters
import Foundation
import Testing

@Suite struct KeyboardUserInfoTests {
  @Test func theNamesAndKeysHaveUIKitsRawValues() {
    #expect(
      KeyboardNotification.all.map(\.rawValue) == [
        "UIKeyboardWillShowNotification", "UIKeyboardDidShowNotification", "UIKeyboardWillHideNotification",
        "UIKeyboardDidHideNotification", "UIKeyboardWillChangeFrameNotification",
        "UIKeyboardDidChangeFrameNotification",
      ])
    typealias Key = KeyboardNotification.UserInfoKey
    #expect(Key.animationCurve == "UIKeyboardAnimationCurveUserInfoKey")
    #expect(Key.animationDuration == "UIKeyboardAnimationDurationUserInfoKey")
    #expect(Key.isLocal == "UIKeyboardIsLocalUserInfoKey")
    #expect(Key.frameBegin == "UIKeyboardFrameBeginUserInfoKey")
    #expect(Key.frameEnd == "UIKeyboardFrameEndUserInfoKey")
  }

  @Test func userInfoDecodesBackToTheSameValue() throws {
    let info = KeyboardUserInfo(
      animationCurve: .easeOut,
      animationDuration: 0.4,
      isLocal: false,
      beginFrame: CGRect(x: 0, y: 800, width: 390, height: 300),
      endFrame: CGRect(x: 0, y: 500, width: 390, height: 300)
    )
    #expect(try KeyboardUserInfo(userInfo: info.userInfo) == info)
  }

  @Test func decodesNumbersAndFramesBoxedAsUIKitPostsThem() throws {
    typealias Key = KeyboardNotification.UserInfoKey
    let userInfo: [AnyHashable: Any] = [
      Key.animationCurve: NSNumber(value: 7),
      Key.animationDuration: NSNumber(value: 0.25),
      Key.isLocal: NSNumber(value: true),
      Key.frameBegin: NSValue(rect: CGRect(x: 0, y: 844, width: 390, height: 336)),
      Key.frameEnd: NSValue(rect: CGRect(x: 0, y: 508, width: 390, height: 336)),
    ]
    let info = try KeyboardUserInfo(userInfo: userInfo)
    #expect(info.animationCurve == .keyboard)
    #expect(info.animationDuration == 0.25)
    #expect(info.isLocal)
    #expect(info.endFrame == CGRect(x: 0, y: 508, width: 390, height: 336))
  }

  @Test func aMissingKeyThrowsAFailureNamingTheKey() {
    var userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    userInfo[KeyboardNotification.UserInfoKey.isLocal] = nil
    #expect(throws: DecodeFailure(key: "UIKeyboardIsLocalUserInfoKey", reason: .missingKey)) {
      try KeyboardUserInfo(userInfo: userInfo)
    }
  }

  @Test func aMistypedKeyThrowsAFailureWithTheExpectedAndFoundTypes() {
    var userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    userInfo[KeyboardNotification.UserInfoKey.frameBegin] = "0 0 390 300"
    #expect(
      throws: DecodeFailure(
        key: "UIKeyboardFrameBeginUserInfoKey", reason: .wrongType(expected: "CGRect", found: "String"))
    ) {
      try KeyboardUserInfo(userInfo: userInfo)
    }
    userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    userInfo[KeyboardNotification.UserInfoKey.animationCurve] = 7.5
    #expect(
      throws: DecodeFailure(
        key: "UIKeyboardAnimationCurveUserInfoKey", reason: .wrongType(expected: "Int", found: "Double"))
    ) {
      try KeyboardUserInfo(userInfo: userInfo)
    }
  }

  typealias Key = KeyboardNotification.UserInfoKey

  /// A key, a value, the type the key expects and the type the failure reports.
  static let booleansAndDecimals: [(String, any Sendable, String, String)] = [
    (Key.animationCurve, true, "Int", "Bool"),
    (Key.animationCurve, NSNumber(value: true), "Int", "NSNumber(Bool)"),
    (Key.animationCurve, Decimal(7), "Int", "Decimal"),
    (Key.animationCurve, NSDecimalNumber(value: 7), "Int", "NSDecimalNumber"),
    (Key.animationDuration, false, "Double", "Bool"),
    (Key.animationDuration, NSNumber(value: false), "Double", "NSNumber(Bool)"),
    (Key.animationDuration, Decimal(string: "0.25")!, "Double", "Decimal"),
    (Key.animationDuration, NSDecimalNumber(string: "0.25"), "Double", "NSDecimalNumber"),
    (Key.isLocal, Decimal(1), "Bool", "Decimal"),
    (Key.isLocal, NSDecimalNumber(value: 0), "Bool", "NSDecimalNumber"),
  ]

  /// Booleans and decimals bridge to `NSNumber` and cast to every number type, but `true` is no animation curve.
  @Test(arguments: booleansAndDecimals)
  func aBooleanUnderANumberKeyOrADecimalUnderAnyKeyIsAWrongType(
    key: String, value: any Sendable, expected: String, found: String
  ) {
    var userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    userInfo[key] = value
    let failure = DecodeFailure(key: key, reason: .wrongType(expected: expected, found: found))
    #expect(throws: failure) { try KeyboardUserInfo(userInfo: userInfo) }
    #expect(failure.description == "cannot decode payload, key \(key): expected \(expected), found \(found)")
  }

  @Test func theBooleanKeyTakesABooleanSwiftOrBoxedAndANumberZeroOrOne() throws {
    var userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    for (value, isLocal) in [
      (true, true), (false, false), (NSNumber(value: true), true), (NSNumber(value: false), false), (1, true),
      (NSNumber(value: 0), false),
    ] as [(any Sendable, Bool)] {
      userInfo[KeyboardNotification.UserInfoKey.isLocal] = value
      #expect(try KeyboardUserInfo(userInfo: userInfo).isLocal == isLocal, "\(value)")
    }
  }

  @Test func everyKeyboardNotificationDecodesIntoItsCase() throws {
    for event in KeyboardEvent.everyKind {
      #expect(try KeyboardEvent(notification: event.notification()) == event)
    }
  }

  @Test func aNotificationThatIsNotAKeyboardNotificationIsAFailureNotATrap() {
    let notification = Notification(
      name: Notification.Name("SomethingElse"), object: nil, userInfo: KeyboardUserInfo.rising(to: 1).userInfo)
    #expect(throws: DecodeFailure(name: "SomethingElse", reason: .other("not a keyboard notification"))) {
      try KeyboardEvent(notification: notification)
    }
  }
}
