import BenchHarness

/// The work of `actor`: bursts of events sent from the measuring thread to actors.
///
/// One iteration is one batch: ``SendingPattern/eventsPerBatch`` events sent with the contender's `send`, then a wait
/// until every actor has applied all of them (``ActorBatchCompletion``). The clock so covers every delivery, the
/// tasks that carry them and the wait for the last. The same shape as BenchHarness's main-actor workload, whose
/// completion only main-actor responders can report to.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum ActorWorkload {
  /// A workload sending `pattern`'s batches to `responders` with `send`.
  ///
  /// - Parameters:
  ///   - name: The contender's report name.
  ///   - pattern: The batches to send.
  ///   - responders: The subscribed actors, all reporting to `completion`.
  ///   - completion: The actors' batch completion, for batches of `pattern`'s size.
  ///   - timeout: How long one batch may take.
  ///   - send: Sends one event to every actor; called on the measuring thread.
  /// - Returns: The workload; its units are deliveries.
  static func make(
    name: String, pattern: SendingPattern, responders: [ActorResponder], completion: ActorBatchCompletion,
    timeout: Duration = MainActorWorkload.batchTimeout, send: @escaping (ActorEvent) -> Void
  ) -> TimedWorkload {
    precondition(completion.eventsPerBatch == pattern.eventsPerBatch, "the completion counts other batches")
    return BatchedWorkload.make(
      name: name, pattern: pattern, responderCount: responders.count, timeout: timeout, wait: completion.wait,
      completedUnits: { waitForValue { await responders.deliveries } },
      send: { sequence, _ in send(ActorEvent(sequence: sequence)) })
  }
}
