// expected-error: type 'Model' does not conform to the 'Sendable' protocol
// A responder-owned subscription on a queue hands its responder to that queue, so a responder that is not Sendable
// is rejected.
import Dispatch
import EventBus

final class Model {
  var total = 0
}

func subscribe(model: Model, to output: Output<Int>, queue: DispatchQueue) {
  output.subscribe(model, on: .queue(queue)) { model, value in model.total += value }
}
