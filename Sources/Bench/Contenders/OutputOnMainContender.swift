import BenchHarness
import EventBus

/// `output` in the main-actor scenarios: this library's `Output`, each responder subscribed by itself with
/// `output.subscribe(responder, on: .main) { … }`, held weakly. Sends come from the measuring thread, so every
/// delivery goes through the main queue.
final class OutputOnMainContender: MainActorContender {
  private let output = Output<MainActorEvent>()
  /// Kept alive here: the output holds them weakly.
  private let responders: [MainActorResponder]

  @MainActor
  init(responders: [MainActorResponder]) {
    self.responders = responders
    for responder in responders {
      output.subscribe(responder, on: .main) { responder, event in responder.handle(event) }
    }
  }

  func send(_ event: MainActorEvent) {
    output.send(event)
  }
}
