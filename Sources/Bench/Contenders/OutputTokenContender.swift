import EventBus

/// `output-token`: this library's `Output` with token-owned subscriptions: each responder's handler is subscribed
/// with `output.subscribe { event in … }`, capturing the responder strongly, and the tokens are kept alive by the
/// contender. No weak reference is read per delivery.
final class OutputTokenContender: Contender {
  private let responders: [Responder]
  private let output = Output<FanoutEvent>()
  private var subscriptions: [EventSubscription] = []

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
    subscriptions.reserveCapacity(responderCount)
  }

  // Ending them was meant: cancelled, not released unused (which a debug build reports as a mistake).
  deinit {
    for subscription in subscriptions {
      subscription.cancel()
    }
  }

  func subscribeAll() {
    for responder in responders {
      subscriptions.append(output.subscribe { event in responder.handle(event) })
    }
  }

  func send(events: Int) {
    for sequence in 0..<events {
      output.send(FanoutEvent(sequence: sequence))
    }
  }

  var deliveries: Int { responders.deliveries }
}
