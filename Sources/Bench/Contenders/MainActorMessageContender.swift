import BenchHarness
import Foundation

/// `main-actor-message` in `fanout` and `source-fanout`: Foundation's typed `NotificationCenter.MainActorMessage`.
/// Each responder adds its own observer with `addObserver(of:for:)`, holding itself weakly, and every event is one
/// `post(_:)` on the main actor, which calls the observers there and then. What a post carries and what a responder
/// does with it is the message's (``ResponderMessage``): the fan-out event in `fanout`, the keyboard `userInfo`,
/// decoded by every observer, in `source-fanout`.
///
/// `post(_:)` may only be called on the main actor, where Bench measures both scenarios. Called from another thread,
/// ``send(events:)`` runs its posts there as one block.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
final class MainActorMessageContender<Message: ResponderMessage>: Contender {
  private let center = NotificationCenter()
  private let responders: [Responder]
  /// One per responder; reserved up front so `memory` would count only what observing costs.
  private var observations: [NotificationCenter.ObservationToken] = []

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
    observations.reserveCapacity(responderCount)
  }

  func subscribeAll() {
    for responder in responders {
      observations.append(Message.observe(for: responder, on: center))
    }
  }

  func send(events: Int) {
    let center = center
    MainActorHop.run {
      Message.post(events, on: center)
    }
  }

  var deliveries: Int { responders.deliveries }
}
