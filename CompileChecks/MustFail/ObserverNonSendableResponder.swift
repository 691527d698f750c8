// expected-error: type 'Model' does not conform to the 'Sendable' protocol
// An EventObserver subscribes its responder when it starts observing, so it has the same rule.
import EventBus

final class Model {
  var total = 0
}

func observe(_ output: Output<Int>, with model: Model) -> any Observer {
  EventObserver(output, responder: model) { model, value in model.total += value }
}
