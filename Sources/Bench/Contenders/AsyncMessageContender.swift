import Foundation

/// `async-message` in `actor`: Foundation's typed `NotificationCenter.AsyncMessage`, posted from the sending thread.
/// Each actor observes with its own `addObserver(of:for:using:)`, holding itself weakly, in a closure that awaits it.
///
/// `post(_:)` returns at once; the center runs every observer of every message in a task of its own, so deliveries
/// reach an actor in no particular order and may wait for it side by side.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
final class AsyncMessageContender: ActorContender {
  private let center = NotificationCenter()
  private let observations: [NotificationCenter.ObservationToken]
  /// Kept alive here: the observers hold them weakly.
  private let responders: [ActorResponder]

  init(responders: [ActorResponder]) {
    self.responders = responders
    observations = responders.map { [center] responder in
      center.addObserver(of: AnyObject.self, for: .actorEvent) { [weak responder] message in
        await responder?.apply(message.event)
      }
    }
  }

  func send(_ event: ActorEvent) {
    center.post(ActorEventMessage(event: event))
  }
}

/// The `actor` scenario's event as a typed asynchronous message, about no subject in particular.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
struct ActorEventMessage: NotificationCenter.AsyncMessage {
  typealias Subject = AnyObject

  var event: ActorEvent
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<ActorEventMessage> {
  /// The `actor` scenario's message.
  static var actorEvent: Self { .init() }
}
