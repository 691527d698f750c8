import BenchHarness
import Broadcasters
import Foundation

/// `main-actor-message` in `source-fanout`: one typed observer per screen. Each responder adds its own
/// `addObserver(of:for:)` for a `MainActorMessage` that carries the keyboard `userInfo`, and decodes it with the same
/// `KeyboardUserInfo(userInfo:)` the other contenders use, as each typed observer does on Apple platforms, where
/// the system posts the classic notification and every observer converts it with the message's `makeMessage(_:)`.
///
/// swift-foundation keeps typed messages apart from classic notifications, so here the contender posts the
/// message itself, with the same prebuilt `userInfo`, one `post(_:)` on the main actor per notification.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
final class KeyboardMessageContender: Contender {
  private let center = NotificationCenter()
  private let responders: [Responder]
  private var observations: [NotificationCenter.ObservationToken] = []

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
    observations.reserveCapacity(responderCount)
  }

  func subscribeAll() {
    for responder in responders {
      observations.append(
        center.addObserver(of: AnyObject.self, for: .keyboardWillShow) { [weak responder] message in
          guard let keyboard = try? KeyboardUserInfo(userInfo: message.userInfo) else { return }
          responder?.handle(.willShow(keyboard))
        })
    }
  }

  func send(events: Int) {
    let center = center
    MainActorHop.run {
      // Built once per call, like KeyboardPoster's, so every post carries the same dictionary.
      let message = KeyboardWillShowMessage(userInfo: KeyboardUserInfo.sample.userInfo)
      for _ in 0..<events {
        center.post(message)
      }
    }
  }

  var deliveries: Int { responders.deliveries }
}

/// A keyboard-will-show as a typed main-actor message: the system's `userInfo`, undecoded.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
struct KeyboardWillShowMessage: NotificationCenter.MainActorMessage {
  typealias Subject = AnyObject

  var userInfo: [AnyHashable: Any]
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<KeyboardWillShowMessage> {
  /// The keyboard-will-show message.
  static var keyboardWillShow: Self { .init() }
}
