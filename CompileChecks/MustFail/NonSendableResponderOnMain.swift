// expected-error: type 'Model' does not conform to the 'Sendable' protocol
// `on: .main` hands the responder to the main actor while the code that subscribed it keeps it, so a responder that
// is neither Sendable nor @MainActor is rejected there too.
import EventBus

final class Model {
  var total = 0
}

func subscribe(model: Model, to output: Output<Int>) {
  output.subscribe(model, on: .main) { model, value in model.total += value }
}
