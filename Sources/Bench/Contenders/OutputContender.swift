import EventBus

/// `output`: this library's `Output`, each responder subscribed by itself (held weakly, delivered immediately).
final class OutputContender: ChurningContender {
  private let responders: [Responder]
  /// Subscribed and cancelled over and over by `subscribe-cancel`.
  private let spare = Responder()
  private let output = Output<FanoutEvent>()
  private(set) var cycles = 0

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
  }

  func subscribeAll() {
    for responder in responders {
      output.subscribe(responder) { responder, event in responder.handle(event) }
    }
  }

  func send(events: Int) {
    for sequence in 0..<events {
      output.send(FanoutEvent(sequence: sequence))
    }
  }

  func subscribeAndCancel(cycles count: Int) {
    for _ in 0..<count {
      output.subscribe(spare) { responder, event in responder.handle(event) }.cancel()
    }
    cycles += count
  }

  var deliveries: Int { responders.deliveries + spare.deliveries }
}
