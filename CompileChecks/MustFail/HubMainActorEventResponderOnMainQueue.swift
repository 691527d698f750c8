// expected-error: a MainActorEventResponder runs on the main actor: write subscribe(type, responder, on: .main)
// The hub refuses a MainActorEventResponder with a DeliveryContext the same way an output does, with a message that
// says what to write instead.
import Dispatch
import EventBus

@MainActor final class Screen: MainActorEventResponder {
  var title = ""

  func handle(event: String) {
    title = event
  }
}

@MainActor func bind(_ screen: Screen, to hub: EventHub) {
  hub.subscribe(String.self, screen, on: .queue(.main))
}
