/// A screen on the main actor that counts the events it handles: what the main-actor scenarios deliver to.
///
/// `handle` is never inlined, so every contender pays one real call per delivery, as an app's `handle(event:)` costs
/// one. The last event of a batch is also reported to the batch's ``BatchCompletion``.
@MainActor
public final class MainActorResponder {
  // Unchecked exclusivity: the properties are public, so the optimiser cannot prove every access exclusive and would
  // check each at run time, about 75 instructions per delivery that the same-thread scenarios' responder, internal
  // to Bench, does not pay. The main actor makes every access exclusive.
  /// Events handled so far.
  @exclusivity(unchecked) public private(set) var deliveries = 0
  /// A sum over the events handled, so their payload is read.
  @exclusivity(unchecked) public private(set) var checksum = 0
  private let completion: BatchCompletion

  /// Creates a responder that reports the end of each batch to `completion`.
  public init(completion: BatchCompletion) {
    self.completion = completion
  }

  /// Counts one delivery.
  @inline(never)
  public func handle(_ event: MainActorEvent) {
    deliveries &+= 1
    checksum &+= event.sequence
    if event.endsBatch {
      completion.responderFinishedBatch()
    }
  }

  /// `count` responders reporting to one new completion.
  public static func crowd(count: Int) -> (responders: [MainActorResponder], completion: BatchCompletion) {
    let completion = BatchCompletion(responderCount: count)
    return ((0..<count).map { _ in MainActorResponder(completion: completion) }, completion)
  }
}

extension Sequence<MainActorResponder> {
  /// Deliveries counted by all the responders.
  @MainActor public var deliveries: Int { reduce(0) { $0 + $1.deliveries } }
}
