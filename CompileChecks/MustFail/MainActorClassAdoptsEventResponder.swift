// expected-error: conformance of 'Banner' to protocol 'EventResponder' crosses into main actor-isolated code and can cause data races [#ConformanceIsolation]
// A @MainActor type that handles events in `handle(event:)` adopts MainActorEventResponder, not EventResponder, whose
// `handle(event:)` may be called from any thread.
import EventBus

@MainActor final class Banner: EventResponder {
  var title = ""

  func handle(event: String) {
    title = event
  }
}
