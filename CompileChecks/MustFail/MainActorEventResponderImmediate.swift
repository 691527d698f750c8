// expected-error: a MainActorEventResponder runs on the main actor: write subscribe(responder) or subscribe(responder, on: .main)
// A MainActorEventResponder cannot be subscribed on `.immediate` either.
import EventBus

@MainActor final class Screen: MainActorEventResponder {
  var title = ""

  func handle(event: String) {
    title = event
  }
}

@MainActor func bind(_ screen: Screen, to output: Output<String>) {
  output.subscribe(screen, on: .immediate)
}
