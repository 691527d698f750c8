/// `closure-array`: the seed article's naive `Output`, an array of closures each capturing its responder.
final class ClosureArrayContender: Contender {
  private let responders: [Responder]
  private let output = NaiveOutput<FanoutEvent>()

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
  }

  func subscribeAll() {
    for responder in responders {
      output.subscribe { event in responder.handle(event) }
    }
  }

  func send(events: Int) {
    for sequence in 0..<events {
      output.send(FanoutEvent(sequence: sequence))
    }
  }

  var deliveries: Int { responders.deliveries }
}
