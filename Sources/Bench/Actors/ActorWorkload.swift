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
    let batch = pattern.eventsPerBatch
    let state = RunState()
    return TimedWorkload(
      name: name, unitsPerIteration: batch * responders.count,
      run: { iterations in
        guard !state.timedOut else { return }
        for _ in 0..<iterations {
          for index in 0..<batch {
            send(ActorEvent(sequence: state.nextSequence + index))
          }
          state.nextSequence &+= batch
          guard completion.wait(timeout: timeout) else {
            state.timedOut = true
            return
          }
        }
      },
      completedUnits: { waitForValue { await responders.deliveries } })
  }

  /// What one workload remembers between repetitions; only the measuring thread touches it.
  private final class RunState {
    var nextSequence = 0
    /// Set when a batch was not applied in time: later repetitions do nothing, and the delivery check fails.
    var timedOut = false
  }
}
