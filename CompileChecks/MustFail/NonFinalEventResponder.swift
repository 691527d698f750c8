// expected-error: non-final class 'Logger' cannot conform to the 'Sendable' protocol
// An EventResponder is Sendable, which a class that can be subclassed cannot promise.
import EventBus

class Logger: EventResponder {
  func handle(event: String) {}
}
