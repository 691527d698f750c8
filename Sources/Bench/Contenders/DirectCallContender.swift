/// `direct-call`: strong references in an array and a method call for each, nothing else. The limit.
final class DirectCallContender: Contender {
  private let responders: [Responder]
  private var subscribers: [Responder] = []

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
  }

  func subscribeAll() {
    subscribers = responders
  }

  func send(events: Int) {
    for sequence in 0..<events {
      let event = FanoutEvent(sequence: sequence)
      for subscriber in subscribers {
        subscriber.handle(event)
      }
    }
  }

  var deliveries: Int { responders.deliveries }
}
