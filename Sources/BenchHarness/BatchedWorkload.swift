/// The loop of the scenarios that wait for delivery: batches of events sent from the measuring thread, each followed by
/// a wait until every responder has handled the whole batch.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum BatchedWorkload {
  /// A workload that sends `pattern`'s batches with `send` and waits for each with `wait`.
  ///
  /// - Parameters:
  ///   - name: The contender's report name.
  ///   - pattern: Bursts or one event at a time.
  ///   - responderCount: The responders each event reaches.
  ///   - timeout: How long one batch may take before the contender is taken to have lost events.
  ///   - wait: Waits until every responder has handled the batch; `false` if that took longer than its argument.
  ///   - completedUnits: The deliveries the responders counted, read after the measurement.
  ///   - counter: The workload's counter, if it has one.
  ///   - send: Sends the event of a sequence number, and whether it ends its batch, to every responder; called on the
  ///     measuring thread.
  /// - Returns: The workload; its units are deliveries.
  public static func make(
    name: String, pattern: SendingPattern, responderCount: Int, timeout: Duration,
    wait: @escaping (Duration) -> Bool, completedUnits: @escaping () -> Int, counter: TimedWorkload.Counter? = nil,
    send: @escaping (_ sequence: Int, _ endsBatch: Bool) -> Void
  ) -> TimedWorkload {
    let batch = pattern.eventsPerBatch
    let state = RunState()
    return TimedWorkload(
      name: name, unitsPerIteration: batch * responderCount,
      run: { iterations in
        guard !state.timedOut else { return }
        for _ in 0..<iterations {
          for index in 0..<batch {
            send(state.nextSequence + index, index == batch - 1)
          }
          state.nextSequence &+= batch
          guard wait(timeout) else {
            state.timedOut = true
            return
          }
        }
      },
      completedUnits: completedUnits, counter: counter)
  }

  /// What one workload remembers between repetitions; only the measuring thread touches it.
  private final class RunState {
    var nextSequence = 0
    /// Set when a batch was not delivered in time: later repetitions do nothing, and the delivery check fails.
    var timedOut = false
  }
}
