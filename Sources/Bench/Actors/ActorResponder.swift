/// A store that is an actor and counts the events it applies, in its own isolated state: what `actor` delivers to.
///
/// `apply` is never inlined, so every contender pays one real call per delivery, as an app's `apply(_:)` costs one.
/// Every full batch it has applied is reported to the batch's ``ActorBatchCompletion``.
actor ActorResponder {
  /// Events applied so far.
  private(set) var deliveries = 0
  /// A sum over the events applied, so their payload is read.
  private(set) var checksum = 0
  private let completion: ActorBatchCompletion

  /// Creates a responder that reports each full batch to `completion`.
  init(completion: ActorBatchCompletion) {
    self.completion = completion
  }

  /// Counts one delivery.
  @inline(never)
  func apply(_ event: ActorEvent) {
    deliveries &+= 1
    checksum &+= event.sequence
    // By count, not by the batch's last event: `async-message` hands each event over in a task of its own, in no
    // particular order. The sender waits for every batch before the next, so a multiple is a whole batch.
    if deliveries.isMultiple(of: completion.eventsPerBatch) {
      completion.responderFinishedBatch()
    }
  }

  /// `count` responders reporting batches of `eventsPerBatch` events to one new completion.
  static func crowd(count: Int, eventsPerBatch: Int) -> (responders: [ActorResponder], completion: ActorBatchCompletion)
  {
    let completion = ActorBatchCompletion(responderCount: count, eventsPerBatch: eventsPerBatch)
    return ((0..<count).map { _ in ActorResponder(completion: completion) }, completion)
  }
}

extension Sequence<ActorResponder> where Self: Sendable {
  /// Deliveries counted by all the actors, each asked in turn.
  var deliveries: Int {
    get async {
      var total = 0
      for responder in self {
        total += await responder.deliveries
      }
      return total
    }
  }

  /// The actors' checksums, in order.
  var checksums: [Int] {
    get async {
      var checksums: [Int] = []
      for responder in self {
        checksums.append(await responder.checksum)
      }
      return checksums
    }
  }
}
