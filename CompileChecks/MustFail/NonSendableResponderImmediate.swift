// expected-error: type 'Model' does not conform to the 'Sendable' protocol
// A responder-owned subscription on the default context (`.immediate`) hands its responder to whichever thread
// sends, so a responder that is not Sendable is rejected.
import EventBus

final class Model {
  var total = 0
}

func subscribe(model: Model, to output: Output<Int>) {
  output.subscribe(model) { model, value in model.total += value }
}
