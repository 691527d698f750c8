import BenchHarness

/// Runs the scenarios a command line selects and collects their figures, reporting progress as it goes.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct Runner {
  var arguments: Arguments
  var plan: MeasurementPlan
  /// Receives a short status before each scenario and N: `[3/27] fanout, N = 100 · 4 s`.
  var progress: (String) -> Void
  /// Receives what the reader should know about the run, such as a scenario skipped.
  var notice: (String) -> Void

  init(arguments: Arguments, progress: @escaping (String) -> Void, notice: @escaping (String) -> Void) {
    self.arguments = arguments
    self.plan = MeasurementPlan(arguments)
    self.progress = progress
    self.notice = notice
  }

  /// Every figure of the run, scenario by scenario, N by N, contender by contender.
  ///
  /// - Throws: ``MeasurementFailure`` if a contender did not do the work it was given.
  func run() throws(MeasurementFailure) -> [ResultRow] {
    // Alive from the first figure to the last, the memory and upstream scenarios included.
    IdleThread.start()
    let clock = ContinuousClock()
    let started = clock.now
    let steps = arguments.scenarios.reduce(0) { $0 + arguments.responderCounts(of: $1).count }
    var step = 0
    var rows: [ResultRow] = []
    if arguments.scenarios.contains(where: \.sendsToTheMainActor) && !MainQueueBlocks.isCounting {
      notice("main-queue blocks are not counted in this build (only on Linux, without a sanitizer)")
    }
    if arguments.scenarios.contains(where: \.isOverload) && !HeapUsage.isAvailable {
      notice("overload: peak heap bytes are not measured; this platform has no heap statistics")
    }
    for scenario in arguments.scenarios {
      if scenario == .memory && !HeapUsage.isAvailable {
        step += arguments.responderCounts(of: scenario).count
        notice("memory: skipped; this platform has no heap statistics")
        continue
      }
      for responderCount in arguments.responderCounts(of: scenario) {
        step += 1
        let seconds = FigureFormat.decimal((clock.now - started).nanoseconds / 1e9, fractionDigits: 0)
        progress("[\(step)/\(steps)] \(scenario.name), N = \(responderCount) · \(seconds) s")
        rows += try self.rows(of: scenario, responderCount: responderCount)
      }
    }
    return rows
  }

  /// The figures of every selected contender of `scenario` at `responderCount`, measured together.
  func rows(of scenario: Scenario, responderCount: Int) throws(MeasurementFailure) -> [ResultRow] {
    let contenders = arguments.contenders(of: scenario)
    let plan = plan
    switch scenario {
    case .fanout, .sourceFanout:
      // Measured on the main actor, where an app's screens send and receive, and where Foundation's typed
      // main-actor messages must be posted.
      let figures = try onTheMainActor { () throws(MeasurementFailure) in
        try TimedScenario.measure(scenario, contenders: contenders, responderCount: responderCount, plan: plan)
      }
      return rows(scenario, contenders, responderCount, figures)
    case .subscribeCancel:
      let figures = try TimedScenario.measure(
        scenario, contenders: contenders, responderCount: responderCount, plan: plan)
      return rows(scenario, contenders, responderCount, figures)
    case .mainActor, .mainActorPaced:
      let figures = try MainActorScenario.measure(
        scenario, contenders: contenders, responderCount: responderCount, plan: plan)
      let times = rows(scenario, contenders, responderCount, figures.map(\.time))
      let blocks = zip(contenders, figures).compactMap { contender, figure in
        figure.count.map {
          ResultRow(
            scenario: scenario, metric: .mainQueueBlocksPerEvent, contender: contender, n: responderCount, figure: $0)
        }
      }
      return times + blocks
    case .actor:
      let figures = try ActorScenario.measure(contenders: contenders, responderCount: responderCount, plan: plan)
      return rows(scenario, contenders, responderCount, figures)
    case .upstream:
      let counts = try UpstreamScenario.measure(contenders: contenders, responderCount: responderCount)
      return rows(scenario, contenders, responderCount, counts.map { Statistics.Summary(exactly: $0) })
    case .memory:
      let figures = try MemoryScenario.measure(
        contenders: contenders, responderCount: responderCount, plan: plan,
        minimumSubscriptions: arguments.isQuick
          ? MemoryScenario.quickMinimumSubscriptions : MemoryScenario.minimumSubscriptions)
      return rows(scenario, contenders, responderCount, figures)
    case .overload, .overloadMain:
      let milliseconds =
        arguments.isQuick ? OverloadScenario.quickSendingMilliseconds : OverloadScenario.sendingMilliseconds
      let figures = try OverloadScenario.measure(
        scenario, contenders: contenders, responderCount: responderCount, sending: .milliseconds(milliseconds))
      return OverloadScenario.rows(scenario, contenders: contenders, responderCount: responderCount, figures: figures)
    }
  }

  private func rows(
    _ scenario: Scenario, _ contenders: [ContenderName], _ responderCount: Int, _ figures: [Statistics.Summary]
  ) -> [ResultRow] {
    zip(contenders, figures).map { contender, figure in
      ResultRow(scenario: scenario, contender: contender, n: responderCount, figure: figure)
    }
  }

  /// `body`'s figures, measured in one block on the main actor.
  private func onTheMainActor(
    _ body: @MainActor () throws(MeasurementFailure) -> [Statistics.Summary]
  ) throws(MeasurementFailure) -> [Statistics.Summary] {
    let result = MainActorHop.run { () -> Result<[Statistics.Summary], MeasurementFailure> in
      do throws(MeasurementFailure) {
        return .success(try body())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}
