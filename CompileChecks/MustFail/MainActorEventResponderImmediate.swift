// expected-error: a MainActorEventResponder runs on the main actor: subscribe it with subscribe(responder) or on: .main
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
