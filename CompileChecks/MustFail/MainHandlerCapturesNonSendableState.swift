// expected-error: sending 'model' risks causing data races [#SendingRisksDataRace]
// A handler on `.main` runs on the main actor, so it cannot share state that is not Sendable with the code that
// subscribed it. The compiler finds this after type checking, in its region analysis.
import EventBus

final class Model {
  var total = 0
}

func subscribe(to output: Output<Int>) -> EventSubscription {
  let model = Model()
  let subscription = output.subscribe(on: .main) { value in model.total += value }
  model.total += 1
  return subscription
}
