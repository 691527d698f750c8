// expected-error: capture of 'model' with non-Sendable type 'Model' in a '@Sendable' closure [#SendableClosureCaptures]
// A token-owned handler is @Sendable: it cannot capture state that is not Sendable.
import EventBus

final class Model {
  var total = 0
}

func subscribe(model: Model, to output: Output<Int>) -> EventSubscription {
  output.subscribe { value in model.total += value }
}
