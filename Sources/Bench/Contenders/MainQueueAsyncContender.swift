import BenchHarness
import Dispatch

/// `main-queue-async`: the hop written by hand. Every event is handed to each responder in its own
/// `DispatchQueue.main.async` block, holding the responder weakly: one main-queue block per responder per event.
final class MainQueueAsyncContender: MainActorContender {
  private let responders: [MainActorResponder]

  @MainActor
  init(responders: [MainActorResponder]) {
    self.responders = responders
  }

  func send(_ event: MainActorEvent) {
    for responder in responders {
      DispatchQueue.main.async { [weak responder] in responder?.handle(event) }
    }
  }
}
