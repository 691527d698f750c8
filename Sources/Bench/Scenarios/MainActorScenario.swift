import BenchHarness

/// `main-actor` and `main-actor-paced`: events sent from the measuring thread to responders on the main actor.
///
/// The main queue must be served while they run: `Bench`'s main thread runs its run loop, which serves it, and the
/// measurements run on a thread of their own. See ``MainActorWorkload`` for what one iteration does.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum MainActorScenario {
  /// Nanoseconds per delivery and, where the process counts them, main-queue blocks per event, for each of
  /// `contenders` at `responderCount`.
  ///
  /// Every contender is set up on the main actor before any is timed, and their repetitions are interleaved
  /// (``TimedComparison``).
  ///
  /// - Throws: ``MeasurementFailure`` if a contender lost or repeated deliveries.
  static func measure(
    _ scenario: Scenario, contenders: [ContenderName], responderCount: Int, plan: MeasurementPlan
  ) throws(MeasurementFailure) -> [TimedComparison.Figures] {
    guard let pattern = scenario.sendingPattern else {
      preconditionFailure("\(scenario.name) does not send to the main actor")
    }
    let workloads = contenders.map { name in
      let (contender, responders, completion) = MainActorHop.run {
        let (responders, completion) = MainActorResponder.crowd(count: responderCount)
        return (name.makeMainActorContender(responders: responders), responders, completion)
      }
      return MainActorWorkload.make(
        name: name.name, pattern: pattern, responders: responders, completion: completion, send: contender.send)
    }
    return try TimedComparison.measureFigures(workloads, plan: plan)
  }
}
