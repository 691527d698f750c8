// expected-error: stored property 'total' of 'Sendable'-conforming class 'Counter' is mutable
// An EventResponder is Sendable: unprotected mutable state is an error at the conformance.
import EventBus

final class Counter: EventResponder {
  var total = 0

  func handle(event: Int) {
    total += event
  }
}
