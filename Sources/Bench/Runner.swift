import BenchHarness

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
    // Alive from the first figure to the last, the memory and upstream scenarios included.
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
        let scenarioRows = try self.rows(of: scenario, responderCount: responderCount)
        rows += scenarioRows
        let summary = scenarioRows.map { "\($0.contender) \(FigureFormat.value($0.value, unit: $0.unit))" }
        progress("  N = \(responderCount): \(summary.joined(separator: ", "))")
      }
      let seconds = (clock.now - started).nanoseconds / 1e9
      progress("  (\(FigureFormat.decimal(seconds, fractionDigits: 1)) s)")
    }
    return rows
  }

  /// The figures of every selected contender of `scenario` at `responderCount`, measured together.
  func rows(of scenario: Scenario, responderCount: Int) throws(MeasurementFailure) -> [ResultRow] {
    let contenders = arguments.contenders(of: scenario)
    let figures = try measure(scenario, contenders: contenders, responderCount: responderCount)
    return zip(contenders, figures).map { contender, figure in
      ResultRow(scenario: scenario, contender: contender, n: responderCount, figure: figure)
    }
  }

  private func measure(
    _ scenario: Scenario, contenders: [ContenderName], responderCount: Int
  ) throws(MeasurementFailure) -> [Statistics.Summary] {
    switch scenario {
    case .fanout, .sourceFanout, .subscribeCancel:
      try TimedScenario.measure(scenario, contenders: contenders, responderCount: responderCount, plan: plan)
    case .upstream:
      try UpstreamScenario.measure(contenders: contenders, responderCount: responderCount).map {
        Statistics.Summary(exactly: $0)
      }
    case .memory:
      try MemoryScenario.measure(contenders: contenders, responderCount: responderCount, plan: plan)
    }
  }
}
