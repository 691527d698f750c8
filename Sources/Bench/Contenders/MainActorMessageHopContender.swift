import BenchHarness
import Foundation

/// `main-actor-message` in the main-actor scenarios: Foundation's typed `NotificationCenter.MainActorMessage`, which
/// must be posted on the main actor. Every event hops there in one `Task { @MainActor in … }` that posts it; each
/// responder observes with its own `addObserver(of:for:)`, holding itself weakly.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
final class MainActorMessageHopContender: MainActorContender {
  private let center = NotificationCenter()
  private let observations: [NotificationCenter.ObservationToken]
  /// Kept alive here: the observers hold them weakly.
  private let responders: [MainActorResponder]

  @MainActor
  init(responders: [MainActorResponder]) {
    self.responders = responders
    observations = responders.map { [center] responder in
      center.addObserver(of: AnyObject.self, for: .mainActorEvent) { [weak responder] message in
        responder?.handle(message.event)
      }
    }
  }

  func send(_ event: MainActorEvent) {
    let center = center
    Task { @MainActor in
      center.post(MainActorEventMessage(event: event))
    }
  }
}

/// The main-actor scenarios' event as a typed main-actor message, about no subject in particular.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
struct MainActorEventMessage: NotificationCenter.MainActorMessage {
  typealias Subject = AnyObject

  var event: MainActorEvent
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<MainActorEventMessage> {
  /// The main-actor scenarios' message.
  static var mainActorEvent: Self { .init() }
}
