import BenchHarness
import Foundation

/// `main-actor-message` in `fanout`: Foundation's typed `NotificationCenter.MainActorMessage`. Each responder adds
/// its own observer with `addObserver(of:for:)`, holding itself weakly, and every event is one `post(_:)` on the
/// main actor, which calls the observers there and then.
///
/// `post(_:)` may only be called on the main actor, where Bench measures the `fanout` scenario. Called from
/// another thread, ``send(events:)`` runs its posts there as one block.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
final class MainActorMessageContender: Contender {
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
      observations.append(
        center.addObserver(of: AnyObject.self, for: .fanoutEvent) { [weak responder] message in
          responder?.handle(message.event)
        })
    }
  }

  func send(events: Int) {
    let center = center
    MainActorHop.run {
      for sequence in 0..<events {
        center.post(FanoutMessage(event: FanoutEvent(sequence: sequence)))
      }
    }
  }

  var deliveries: Int { responders.deliveries }
}

/// The fan-out event as a typed main-actor message, about no subject in particular.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
struct FanoutMessage: NotificationCenter.MainActorMessage {
  typealias Subject = AnyObject

  var event: FanoutEvent
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<FanoutMessage> {
  /// The fan-out event's message.
  static var fanoutEvent: Self { .init() }
}
