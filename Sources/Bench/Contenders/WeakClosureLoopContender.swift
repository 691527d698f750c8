/// `weak-closure-loop`: the best weak fan-out one writes by hand. An array of `[weak responder]` closures, called
/// in a loop; no lock, no queueing, no pruning, so it is not thread-safe and keeps dead entries.
final class WeakClosureLoopContender: Contender {
  private let responders: [Responder]
  private var handlers: [(FanoutEvent) -> Void] = []

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
  }

  func subscribeAll() {
    handlers.reserveCapacity(responders.count)
    for responder in responders {
      handlers.append { [weak responder] event in responder?.handle(event) }
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
