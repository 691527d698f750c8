import Foundation

#if os(iOS)
  import UIKit
#endif

/// The names and `userInfo` keys of the system keyboard notifications.
///
/// On iOS they are UIKit's (`UIResponder.keyboardWillShowNotification` and so on). Elsewhere they are defined with
/// the same raw values, so apps, previews and tests can post keyboard notifications that a ``KeyboardBroadcaster``
/// decodes exactly as it decodes UIKit's.
public enum KeyboardNotification {
  #if os(iOS)
    public static let willShow = UIResponder.keyboardWillShowNotification
    public static let didShow = UIResponder.keyboardDidShowNotification
    public static let willHide = UIResponder.keyboardWillHideNotification
    public static let didHide = UIResponder.keyboardDidHideNotification
    public static let willChangeFrame = UIResponder.keyboardWillChangeFrameNotification
    public static let didChangeFrame = UIResponder.keyboardDidChangeFrameNotification
  #else
    /// Posted before the keyboard appears.
    public static let willShow = Notification.Name("UIKeyboardWillShowNotification")
    /// Posted after the keyboard appeared.
    public static let didShow = Notification.Name("UIKeyboardDidShowNotification")
    /// Posted before the keyboard disappears.
    public static let willHide = Notification.Name("UIKeyboardWillHideNotification")
    /// Posted after the keyboard disappeared.
    public static let didHide = Notification.Name("UIKeyboardDidHideNotification")
    /// Posted before the keyboard's frame changes.
    public static let willChangeFrame = Notification.Name("UIKeyboardWillChangeFrameNotification")
    /// Posted after the keyboard's frame changed.
    public static let didChangeFrame = Notification.Name("UIKeyboardDidChangeFrameNotification")
  #endif

  /// Every keyboard notification name, in the order of ``KeyboardEvent``'s cases.
  public static let all: [Notification.Name] = [willShow, didShow, willHide, didHide, willChangeFrame, didChangeFrame]

  /// The keys of a keyboard notification's `userInfo`.
  public enum UserInfoKey {
    #if os(iOS)
      public static let animationCurve = UIResponder.keyboardAnimationCurveUserInfoKey
      public static let animationDuration = UIResponder.keyboardAnimationDurationUserInfoKey
      public static let isLocal = UIResponder.keyboardIsLocalUserInfoKey
      public static let frameBegin = UIResponder.keyboardFrameBeginUserInfoKey
      public static let frameEnd = UIResponder.keyboardFrameEndUserInfoKey
    #else
      /// The animation curve, an `Int` (`UIView.AnimationCurve`'s raw value).
      public static let animationCurve = "UIKeyboardAnimationCurveUserInfoKey"
      /// The animation duration in seconds, a `Double`.
      public static let animationDuration = "UIKeyboardAnimationDurationUserInfoKey"
      /// Whether the keyboard belongs to this app, a `Bool`.
      public static let isLocal = "UIKeyboardIsLocalUserInfoKey"
      /// The keyboard's frame before the change, a `CGRect`, in screen coordinates.
      public static let frameBegin = "UIKeyboardFrameBeginUserInfoKey"
      /// The keyboard's frame after the change, a `CGRect`, in screen coordinates.
      public static let frameEnd = "UIKeyboardFrameEndUserInfoKey"
    #endif
  }
}
