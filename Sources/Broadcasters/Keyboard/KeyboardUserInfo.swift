import Foundation

#if os(iOS) || os(tvOS) || os(visionOS)
  import UIKit
#endif

/// What a keyboard notification says: how the keyboard animates, and where it was and will be.
///
/// A ``KeyboardBroadcaster`` decodes it once per notification and hands the same value to every subscriber.
public struct KeyboardUserInfo: Sendable, Equatable {
  /// The curve of the keyboard's animation.
  public var animationCurve: KeyboardAnimationCurve
  /// The duration of the keyboard's animation, in seconds.
  public var animationDuration: Double
  /// Whether the keyboard belongs to this app (`false` for another app's keyboard in multitasking).
  public var isLocal: Bool
  /// The keyboard's frame before the change, in screen coordinates.
  public var beginFrame: CGRect
  /// The keyboard's frame after the change, in screen coordinates.
  public var endFrame: CGRect

  /// Creates keyboard information, for tests, previews and posting.
  ///
  /// - Parameters:
  ///   - animationCurve: The animation curve; the system keyboard's by default.
  ///   - animationDuration: The animation duration in seconds; 0.25 by default.
  ///   - isLocal: Whether the keyboard belongs to this app; `true` by default.
  ///   - beginFrame: The frame before the change.
  ///   - endFrame: The frame after the change.
  public init(
    animationCurve: KeyboardAnimationCurve = .keyboard,
    animationDuration: Double = 0.25,
    isLocal: Bool = true,
    beginFrame: CGRect,
    endFrame: CGRect
  ) {
    self.animationCurve = animationCurve
    self.animationDuration = animationDuration
    self.isLocal = isLocal
    self.beginFrame = beginFrame
    self.endFrame = endFrame
  }

  /// Decodes a keyboard notification's `userInfo`.
  ///
  /// Numbers may be Swift values, `CGFloat`s or `NSNumber`s, frames `CGRect`s or `NSValue`s boxing a rect, as UIKit
  /// posts them. The curve must be a whole number in `Int`'s range and `isLocal` a `Bool`, 0 or 1. A Boolean is not a
  /// number (`true` under the curve key fails rather than reading as 1), and a `Decimal` or `NSDecimalNumber` fails
  /// under any key. The keys are read in the order of the properties, and the first that fails is reported.
  ///
  /// ```swift
  /// let info = try KeyboardUserInfo(userInfo: notification.userInfo ?? [:])
  /// ```
  ///
  /// - Parameter userInfo: The notification's `userInfo`.
  /// - Throws: A ``DecodeFailure`` naming the first key that is missing (`.missingKey`) or holds a value of the wrong
  ///   type (`.wrongType`): any other type, a Boolean under a number key, a decimal, a number under a frame key, an
  ///   `NSValue` boxing a point, size, range or bytes. Never traps, whatever the values.
  public init(userInfo: [AnyHashable: Any]) throws {
    let reader = UserInfoReader(userInfo: userInfo)
    typealias Key = KeyboardNotification.UserInfoKey
    animationCurve = KeyboardAnimationCurve(rawValue: try reader.int(Key.animationCurve))
    animationDuration = try reader.double(Key.animationDuration)
    isLocal = try reader.bool(Key.isLocal)
    beginFrame = try reader.rect(Key.frameBegin)
    endFrame = try reader.rect(Key.frameEnd)
  }

  /// The `userInfo` of a keyboard notification carrying this information, as UIKit posts it: `NSValue` frames on
  /// UIKit platforms, `CGRect` frames elsewhere. ``init(userInfo:)`` decodes it back.
  ///
  /// ```swift
  /// center.post(name: KeyboardNotification.willShow, object: nil, userInfo: info.userInfo)
  /// ```
  public var userInfo: [AnyHashable: Any] {
    typealias Key = KeyboardNotification.UserInfoKey
    return [
      Key.animationCurve: animationCurve.rawValue,
      Key.animationDuration: animationDuration,
      Key.isLocal: isLocal,
      Key.frameBegin: Self.boxed(beginFrame),
      Key.frameEnd: Self.boxed(endFrame),
    ]
  }

  private static func boxed(_ frame: CGRect) -> Any {
    #if os(iOS) || os(tvOS) || os(visionOS)
      NSValue(cgRect: frame)
    #else
      frame
    #endif
  }
}
