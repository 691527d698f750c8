/// `weak-closure-loop`: a hand-written weak fan-out as often seen in apps: an array of `[weak responder]` closures,
/// called in a loop. Each call goes through a closure context that holds the weak reference, which costs more than
/// `weak-box-loop`'s direct field load. No lock, no queueing, no pruning: not thread-safe, keeps dead entries.
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
