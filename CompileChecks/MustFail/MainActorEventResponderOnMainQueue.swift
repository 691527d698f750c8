// expected-error: a MainActorEventResponder runs on the main actor: write subscribe(responder) or subscribe(responder, on: .main)
// A MainActorEventResponder subscribed with a DeliveryContext, `.queue(.main)` included, meets an unavailable
// overload whose message says what to write instead.
import Dispatch
import EventBus

@MainActor final class Screen: MainActorEventResponder {
  var title = ""

  func handle(event: String) {
    title = event
  }
}

@MainActor func bind(_ screen: Screen, to output: Output<String>) {
  output.subscribe(screen, on: .queue(.main))
}
