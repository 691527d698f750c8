/// `weak-box-loop`: the best weak fan-out one writes by hand. An array of boxes, each a `final class` with a `weak`
/// field, and a loop that loads each field and calls the responder directly; no closure, no lock, no queueing, no
/// pruning, so it is not thread-safe and keeps the boxes of dead responders.
final class WeakBoxLoopContender: Contender {
  private let responders: [Responder]
  private var boxes: [WeakBox] = []

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
  }

  func subscribeAll() {
    boxes.reserveCapacity(responders.count)
    for responder in responders {
      boxes.append(WeakBox(responder))
    }
  }

  func send(events: Int) {
    for sequence in 0..<events {
      let event = FanoutEvent(sequence: sequence)
      for box in boxes {
        box.responder?.handle(event)
      }
    }
  }

  var deliveries: Int { responders.deliveries }
}

/// One subscriber of `weak-box-loop`.
private final class WeakBox {
  weak var responder: Responder?

  init(_ responder: Responder) {
    self.responder = responder
  }
}
