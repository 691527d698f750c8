/// `closure-array`: the seed article's naive `Output`, a plain array of `(FanoutEvent) -> Void` closures, each
/// capturing its responder strongly, called in turn. What people write first: no lock, no way to unsubscribe, not
/// thread-safe, and it keeps every responder alive.
final class ClosureArrayContender: Contender {
  private let responders: [Responder]
  private var handlers: [(FanoutEvent) -> Void] = []

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
  }

  func subscribeAll() {
    for responder in responders {
      handlers.append { event in responder.handle(event) }
    }
  }

  func send(events: Int) {
    for sequence in 0..<events {
      let event = FanoutEvent(sequence: sequence)
      for handler in handlers {
        handler(event)
      }
    }
  }

  var deliveries: Int { responders.deliveries }
}
