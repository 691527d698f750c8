import Broadcasters
import Foundation

extension KeyboardUserInfo {
  /// A keyboard of `height` points rising from the bottom of a 390 × 844 screen.
  static func rising(to height: Double, duration: Double = 0.25) -> KeyboardUserInfo {
    KeyboardUserInfo(
      animationDuration: duration,
      beginFrame: CGRect(x: 0, y: 844, width: 390, height: height),
      endFrame: CGRect(x: 0, y: 844 - height, width: 390, height: height)
    )
  }
}

extension KeyboardEvent {
  /// One event of each kind, with different frames.
  static let everyKind: [KeyboardEvent] = [
    .willShow(.rising(to: 300)),
    .didShow(.rising(to: 300)),
    .willChangeFrame(.rising(to: 340)),
    .didChangeFrame(.rising(to: 340)),
    .willHide(.rising(to: 0, duration: 0.2)),
    .didHide(.rising(to: 0, duration: 0.2)),
  ]
}

extension NotificationCenter {
  func post(_ event: KeyboardEvent) {
    post(event.notification())
  }
}
