import Dispatch

/// The work of the main-actor scenarios: events sent from the measuring thread to responders on the main actor.
///
/// One iteration is one batch: ``SendingPattern/eventsPerBatch`` events sent with the contender's `send`, the last
/// one marked, then a wait until every responder has handled it (``BatchCompletion``). The clock so covers every
/// delivery, including the hop to the main queue and the wait for it. The workload's counter is
/// ``MainQueueBlocks``, per event, where the process counts them.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum MainActorWorkload {
  /// How long one batch may take before the contender is taken to have lost events and the measurement fails.
  public static let batchTimeout = Duration.seconds(60)

  /// A workload sending `pattern`'s batches to `responders` with `send`.
  ///
  /// - Parameters:
  ///   - name: The contender's report name.
  ///   - pattern: Bursts or one event at a time.
  ///   - responders: The subscribed responders, all reporting to `completion`.
  ///   - completion: The responders' batch completion.
  ///   - timeout: How long one batch may take.
  ///   - send: Sends one event to every responder; called on the measuring thread.
  /// - Returns: The workload; its units are deliveries.
  public static func make(
    name: String, pattern: SendingPattern, responders: [MainActorResponder], completion: BatchCompletion,
    timeout: Duration = batchTimeout, send: @escaping (MainActorEvent) -> Void
  ) -> TimedWorkload {
    BatchedWorkload.make(
      name: name, pattern: pattern, responderCount: responders.count, timeout: timeout, wait: completion.wait,
      completedUnits: { MainActorHop.run { responders.deliveries } },
      counter: MainQueueBlocks.isCounting
        ? TimedWorkload.Counter(read: { MainQueueBlocks.enqueued }, unitsPerIteration: pattern.eventsPerBatch) : nil,
      send: { sequence, endsBatch in send(MainActorEvent(sequence: sequence, endsBatch: endsBatch)) })
  }
}
