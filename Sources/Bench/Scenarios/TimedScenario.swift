import BenchHarness

/// The scenarios the clock measures: `fanout`, `source-fanout` and `subscribe-cancel`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum TimedScenario {
  /// Nanoseconds per unit of work (delivery or cycle) for each of `contenders` at `responderCount`, with their
  /// spread over the repetitions.
  ///
  /// Every contender is set up before any is timed, and their repetitions are interleaved
  /// (``TimedComparison``).
  static func measure(
    _ scenario: Scenario, contenders: [ContenderName], responderCount: Int, plan: MeasurementPlan
  ) throws(MeasurementFailure) -> [Statistics.Summary] {
    let prepared = contenders.map { name in
      let contender = name.makeContender(in: scenario, responderCount: responderCount)
      contender.subscribeAll()
      return (name, contender)
    }
    let workloads = prepared.map { name, contender in
      workload(scenario, contender: contender, named: name, responderCount: responderCount)
    }
    let figures = try TimedComparison.measure(workloads, plan: plan)
    if scenario == .subscribeCancel {
      for (name, contender) in prepared {
        try checkCrowdIsIntact(contender, named: name, responderCount: responderCount)
      }
    }
    return figures
  }

  static func workload(
    _ scenario: Scenario, contender: any Contender, named name: ContenderName, responderCount: Int
  ) -> TimedWorkload {
    guard scenario == .subscribeCancel else {
      return TimedWorkload(
        name: name.name, unitsPerIteration: responderCount, run: contender.send(events:),
        completedUnits: { contender.deliveries })
    }
    guard let churning = contender as? any ChurningContender else {
      preconditionFailure("\(name.name) is listed in subscribe-cancel but cannot subscribe and cancel")
    }
    return TimedWorkload(
      name: name.name, unitsPerIteration: 1, run: churning.subscribeAndCancel(cycles:),
      completedUnits: { churning.cycles })
  }

  /// After subscribe-cancel cycles, one event must still reach the N subscribed responders and nobody else.
  private static func checkCrowdIsIntact(
    _ contender: any Contender, named name: ContenderName, responderCount: Int
  ) throws(MeasurementFailure) {
    let before = contender.deliveries
    contender.send(events: 1)
    let delivered = contender.deliveries - before
    guard delivered == responderCount else {
      throw MeasurementFailure(
        message: "after subscribe-cancel, one event reached \(delivered) responders of '\(name.name)', "
          + "expected \(responderCount)")
    }
  }
}
