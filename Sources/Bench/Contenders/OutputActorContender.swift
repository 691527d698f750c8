import EventBus

/// `output` in `actor`: this library's `Output`, each actor subscribed by itself with
/// `output.subscribe(actor) { actor, event in actor.apply(event) }`, held weakly. Every subscription queues its
/// events and hands them over in one task at a time, in order.
final class OutputActorContender: ActorContender {
  private let output = Output<ActorEvent>()
  /// Kept alive here: the output holds them weakly.
  private let responders: [ActorResponder]

  init(responders: [ActorResponder]) {
    self.responders = responders
    for responder in responders {
      output.subscribe(responder) { responder, event in responder.apply(event) }
    }
  }

  func send(_ event: ActorEvent) {
    output.send(event)
  }
}
