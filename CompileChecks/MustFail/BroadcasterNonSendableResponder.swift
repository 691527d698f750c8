// expected-error: type 'Model' does not conform to the 'Sendable' protocol
// A Broadcaster's responder-owned subscribe has the same rule as an Output's.
import Broadcasters
import Foundation

final class Model {
  var ticks: [Date] = []
}

func subscribe(model: Model, to ticks: Broadcaster<Date>) {
  ticks.subscribe(model) { model, date in model.ticks.append(date) }
}
