// expected-error: cannot form main actor-isolated conformance of 'Banner' to SendableMetatype-inheriting protocol 'EventResponder' [#IsolatedConformances]
// The compiler's fix-it for a @MainActor EventResponder, an isolated conformance, is refused in turn: an
// EventResponder may be used from any thread. MainActorEventResponder is the protocol for a main-actor type.
import EventBus

@MainActor final class Banner: @MainActor EventResponder {
  var title = ""

  func handle(event: String) {
    title = event
  }
}
