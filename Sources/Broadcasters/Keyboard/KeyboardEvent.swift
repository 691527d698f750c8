import Foundation

/// A keyboard notification, decoded: which one, and what its `userInfo` said.
///
/// ```swift
/// keyboard.subscribe(screen) { screen, event in
///   switch event {
///   case .willShow(let info), .willChangeFrame(let info): screen.avoid(info.endFrame, over: info.animationDuration)
///   case .willHide(let info): screen.restore(over: info.animationDuration)
///   case .didShow, .didHide, .didChangeFrame: break
///   }
/// }
/// ```
public enum KeyboardEvent: Sendable, Equatable {
  /// The keyboard is about to appear.
  case willShow(KeyboardUserInfo)
  /// The keyboard appeared.
  case didShow(KeyboardUserInfo)
  /// The keyboard is about to disappear.
  case willHide(KeyboardUserInfo)
  /// The keyboard disappeared.
  case didHide(KeyboardUserInfo)
  /// The keyboard's frame is about to change.
  case willChangeFrame(KeyboardUserInfo)
  /// The keyboard's frame changed.
  case didChangeFrame(KeyboardUserInfo)

  /// Creates the event for a keyboard notification name, or `nil` if `name` is not one of ``KeyboardNotification``'s.
  ///
  /// - Parameters:
  ///   - name: The notification name.
  ///   - userInfo: The decoded `userInfo`.
  public init?(name: Notification.Name, userInfo: KeyboardUserInfo) {
    switch name {
    case KeyboardNotification.willShow: self = .willShow(userInfo)
    case KeyboardNotification.didShow: self = .didShow(userInfo)
    case KeyboardNotification.willHide: self = .willHide(userInfo)
    case KeyboardNotification.didHide: self = .didHide(userInfo)
    case KeyboardNotification.willChangeFrame: self = .willChangeFrame(userInfo)
    case KeyboardNotification.didChangeFrame: self = .didChangeFrame(userInfo)
    default: return nil
    }
  }

  /// Decodes a keyboard notification.
  ///
  /// - Parameter notification: A notification named by ``KeyboardNotification``.
  /// - Throws: A ``DecodeFailure`` with the notification's name, and the key at fault when the `userInfo` is missing
  ///   a key or has a value of the wrong type. Never traps.
  public init(notification: Notification) throws {
    let name = notification.name.rawValue
    guard let userInfo = notification.userInfo else {
      throw DecodeFailure(name: name, reason: .other("no userInfo"))
    }
    let info: KeyboardUserInfo
    do {
      info = try KeyboardUserInfo(userInfo: userInfo)
    } catch var failure as DecodeFailure {
      failure.name = name
      throw failure
    }
    guard let event = KeyboardEvent(name: notification.name, userInfo: info) else {
      throw DecodeFailure(name: name, reason: .other("not a keyboard notification"))
    }
    self = event
  }

  /// The keyboard information the event carries.
  public var userInfo: KeyboardUserInfo {
    switch self {
    case .willShow(let info), .didShow(let info), .willHide(let info), .didHide(let info),
      .willChangeFrame(let info), .didChangeFrame(let info):
      info
    }
  }

  /// The name of the notification this event decodes.
  public var notificationName: Notification.Name {
    switch self {
    case .willShow: KeyboardNotification.willShow
    case .didShow: KeyboardNotification.didShow
    case .willHide: KeyboardNotification.willHide
    case .didHide: KeyboardNotification.didHide
    case .willChangeFrame: KeyboardNotification.willChangeFrame
    case .didChangeFrame: KeyboardNotification.didChangeFrame
    }
  }

  /// The notification this event decodes, ready to post: `center.post(event.notification())`.
  ///
  /// - Parameter object: The posting object; `nil` by default.
  public func notification(object: Any? = nil) -> Notification {
    Notification(name: notificationName, object: object, userInfo: userInfo.userInfo)
  }
}
