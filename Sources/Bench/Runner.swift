/// Runs the scenarios a command line selects and collects their figures, reporting progress as it goes.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct Runner {
  var arguments: Arguments
  var plan: MeasurementPlan
  /// Receives one line per scenario and per N; `Bench` sends them to standard error.
  var progress: (String) -> Void

  init(arguments: Arguments, progress: @escaping (String) -> Void) {
    self.arguments = arguments
    self.plan = MeasurementPlan(arguments)
    self.progress = progress
  }

  /// Every figure of the run, scenario by scenario, N by N, contender by contender.
  ///
  /// - Throws: ``MeasurementFailure`` if a contender did not do the work it was given.
  func run() throws(MeasurementFailure) -> [ResultRow] {
    IdleThread.start()
    let clock = ContinuousClock()
    var rows: [ResultRow] = []
    for scenario in arguments.scenarios {
      let contenders = arguments.contenders(of: scenario)
      if scenario == .memory && !HeapUsage.isAvailable {
        progress("memory: skipped; this platform has no heap statistics")
        continue
      }
      progress("\(scenario.name): \(contenders.map(\.name).joined(separator: ", "))")
      let started = clock.now
      for responderCount in arguments.responderCounts {
        let figures = try measure(scenario, contenders: contenders, responderCount: responderCount)
        let scenarioRows = zip(contenders, figures).map { contender, value in
          ResultRow(scenario: scenario, contender: contender, n: responderCount, value: value)
        }
        rows += scenarioRows
        let summary = scenarioRows.map { "\($0.contender) \(FigureFormat.value($0.value, unit: $0.unit))" }
        progress("  N = \(responderCount): \(summary.joined(separator: ", "))")
      }
      let seconds = (clock.now - started).nanoseconds / 1e9
      progress("  (\(FigureFormat.decimal(seconds, fractionDigits: 1)) s)")
    }
    return rows
  }

  private func measure(
    _ scenario: Scenario, contenders: [ContenderName], responderCount: Int
  ) throws(MeasurementFailure) -> [Double] {
    switch scenario {
    case .fanout, .sourceFanout, .subscribeCancel:
      try TimedScenario.measure(scenario, contenders: contenders, responderCount: responderCount, plan: plan)
    case .upstream:
      try UpstreamScenario.measure(contenders: contenders, responderCount: responderCount)
    case .memory:
      try MemoryScenario.measure(contenders: contenders, responderCount: responderCount, plan: plan)
    }
  }
}
