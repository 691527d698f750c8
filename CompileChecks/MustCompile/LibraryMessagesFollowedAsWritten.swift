// follows: a MainActorEventResponder runs on the main actor: write subscribe(responder) or subscribe(responder, on: .main)
// follows: a MainActorEventResponder runs on the main actor: write subscribe(type, responder, on: .main)
// Every message the library writes (an unavailable overload's) leads to code that compiles: here is each message's
// advice, written as it says, for the code that MustFail/MainActorEventResponderOnMainQueue.swift,
// MainActorEventResponderImmediate.swift and HubMainActorEventResponderOnMainQueue.swift show refused. The script
// checks that every `message:` in Sources is named on a `// follows:` line of a file in MustCompile.
import EventBus

@MainActor final class Screen: MainActorEventResponder {
  var title = ""

  func handle(event: String) {
    title = event
  }
}

@MainActor func bindAsTheOutputMessageSays(_ screen: Screen, to output: Output<String>) {
  output.subscribe(screen)
  output.subscribe(screen, on: .main)
}

@MainActor func bindAsTheHubMessageSays(_ screen: Screen, to hub: EventHub) {
  hub.subscribe(String.self, screen, on: .main)
  hub.subscribe(String.self, screen)
}

@MainActor func bindThroughAReadOnlyOutputAndAnOperator(_ screen: Screen, to output: Output<String>) {
  output.readOnly.subscribe(screen, on: .main)
  output.map { $0.uppercased() }.subscribe(screen, on: .main)
}
