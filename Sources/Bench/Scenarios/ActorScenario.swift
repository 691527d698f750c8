import BenchHarness

/// `actor`: bursts of events sent from the measuring thread to actors, each applying them in its own isolated state.
///
/// No main queue is involved: the actors run on the global concurrent executor, and the measuring thread waits for
/// every batch (``ActorWorkload``).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum ActorScenario {
  /// Nanoseconds per delivery for each of `contenders` at `responderCount`, with their spread over the repetitions.
  ///
  /// Every contender is set up, with actors of its own, before any is timed, and their repetitions are interleaved
  /// (``TimedComparison``).
  ///
  /// - Throws: ``MeasurementFailure`` if a contender lost or repeated deliveries.
  static func measure(
    contenders: [ContenderName], responderCount: Int, plan: MeasurementPlan
  ) throws(MeasurementFailure) -> [Statistics.Summary] {
    let pattern: SendingPattern = .bursts
    let workloads = contenders.map { name in
      let (responders, completion) = ActorResponder.crowd(
        count: responderCount, eventsPerBatch: pattern.eventsPerBatch)
      let contender = name.makeActorContender(responders: responders)
      return ActorWorkload.make(
        name: name.name, pattern: pattern, responders: responders, completion: completion, send: contender.send)
    }
    return try TimedComparison.measure(workloads, plan: plan)
  }
}
