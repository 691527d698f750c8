import Broadcasters
import Foundation

/// A keyboard-will-show as a typed main-actor message: the system's `userInfo`, undecoded.
///
/// Every observer decodes it with the same `KeyboardUserInfo(userInfo:)` the other `source-fanout` contenders use, as
/// each typed observer does on Apple platforms, where the system posts the classic notification and every observer
/// converts it with the message's `makeMessage(_:)`. swift-foundation keeps typed messages apart from classic
/// notifications, so here the contender posts the message itself, with the same prebuilt `userInfo`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
struct KeyboardWillShowMessage: ResponderMessage {
  typealias Subject = AnyObject

  var userInfo: [AnyHashable: Any]

  static func post(_ count: Int, on center: NotificationCenter) {
    // Built once per call, like KeyboardPoster's, so every post carries the same dictionary.
    let message = KeyboardWillShowMessage(userInfo: KeyboardUserInfo.sample.userInfo)
    for _ in 0..<count {
      center.post(message)
    }
  }

  static func observe(for responder: Responder, on center: NotificationCenter) -> NotificationCenter.ObservationToken {
    center.addObserver(of: AnyObject.self, for: .keyboardWillShow) { [weak responder] message in
      guard let keyboard = try? KeyboardUserInfo(userInfo: message.userInfo) else { return }
      responder?.handle(.willShow(keyboard))
    }
  }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<KeyboardWillShowMessage> {
  /// The keyboard-will-show message.
  static var keyboardWillShow: Self { .init() }
}
