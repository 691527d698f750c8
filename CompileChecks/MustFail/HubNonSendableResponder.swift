// expected-error: type 'Model' does not conform to the 'Sendable' protocol
// The hub's responder-owned subscribe has the same rule as an Output's.
import EventBus

struct UserSignedIn: Sendable {
  let id: Int
}

final class Model {
  var signedIn: [Int] = []
}

func subscribe(model: Model, to hub: EventHub) {
  hub.subscribe(UserSignedIn.self, model) { model, event in model.signedIn.append(event.id) }
}
