import BenchHarness
import EventBus

/// `output` in the main-actor scenarios: this library's `Output`, each responder subscribed by itself with
/// `output.subscribe(responder, on: .main) { … }`, held weakly. Sends come from the measuring thread, so every
/// delivery goes through the main queue.
///
/// `output-bounded` is the same with `on: .main(bufferingPolicy: .bufferingNewest(1_000))`: each responder then has a
/// lane of its own, which takes its events one at a time, under its own lock, in a block of its own on the main queue.
final class OutputOnMainContender: MainActorContender {
  private let output = Output<MainActorEvent>()
  /// Kept alive here: the output holds them weakly.
  private let responders: [MainActorResponder]

  @MainActor
  init(responders: [MainActorResponder], context: MainActorContext = .main) {
    self.responders = responders
    for responder in responders {
      output.subscribe(responder, on: context) { responder, event in responder.handle(event) }
    }
  }

  func send(_ event: MainActorEvent) {
    output.send(event)
  }
}
