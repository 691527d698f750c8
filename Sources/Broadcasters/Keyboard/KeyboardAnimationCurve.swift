/// The curve a keyboard animation follows: the raw value of `UIView.AnimationCurve`.
///
/// The system keyboard uses a curve UIKit does not name (raw value 7, ``keyboard``). To animate alongside it on iOS,
/// shift the raw value into animation options: `UIView.AnimationOptions(rawValue: UInt(curve.rawValue) << 16)`.
public struct KeyboardAnimationCurve: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// `UIView.AnimationCurve`'s raw value.
  public var rawValue: Int

  /// Creates a curve from `UIView.AnimationCurve`'s raw value, as a keyboard notification carries it.
  ///
  /// - Parameter rawValue: The raw value; any value is kept, including ones UIKit does not name.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// `UIView.AnimationCurve.easeInOut`.
  public static let easeInOut = KeyboardAnimationCurve(rawValue: 0)
  /// `UIView.AnimationCurve.easeIn`.
  public static let easeIn = KeyboardAnimationCurve(rawValue: 1)
  /// `UIView.AnimationCurve.easeOut`.
  public static let easeOut = KeyboardAnimationCurve(rawValue: 2)
  /// `UIView.AnimationCurve.linear`.
  public static let linear = KeyboardAnimationCurve(rawValue: 3)
  /// The curve the system keyboard animates with.
  public static let keyboard = KeyboardAnimationCurve(rawValue: 7)

  /// The curve's name, or `curve(<raw value>)` for one without a name.
  public var description: String {
    switch rawValue {
    case 0: "easeInOut"
    case 1: "easeIn"
    case 2: "easeOut"
    case 3: "linear"
    case 7: "keyboard"
    default: "curve(\(rawValue))"
    }
  }
}
