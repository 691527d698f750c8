import Broadcasters
import Foundation

/// Posts what `source-fanout` measures: a keyboard-will-show with the `userInfo` UIKit sends, on a centre of its
/// own so nothing else observes or posts there.
struct KeyboardPoster {
  static let name = KeyboardNotification.willShow

  let center = NotificationCenter()
  /// Built once, so every post carries the same dictionary and the contenders pay only for the post and for what
  /// they do with it.
  private let userInfo = KeyboardUserInfo.sample.userInfo

  /// Posts the notification `count` times.
  func post(_ count: Int) {
    for _ in 0..<count {
      center.post(name: Self.name, object: nil, userInfo: userInfo)
    }
  }
}

extension KeyboardUserInfo {
  /// A phone keyboard rising from the bottom of the screen with the system curve and duration.
  static let sample = KeyboardUserInfo(
    beginFrame: CGRect(x: 0, y: 844, width: 390, height: 336), endFrame: CGRect(x: 0, y: 508, width: 390, height: 336))
}
