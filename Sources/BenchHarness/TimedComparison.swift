/// Times several contenders at the same work, each figure the median of interleaved repetitions.
///
/// ```swift
/// let figures = try TimedComparison.measure([workloadA, workloadB], plan: .quick)
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum TimedComparison {
  /// Measures every workload; returns nanoseconds per unit of work, in the order of `workloads`.
  ///
  /// Each workload first calibrates its iterations so a repetition takes `plan.repetitionTarget` (unless
  /// `plan.fixedIterations` fixes them) and runs one untimed warm-up repetition. Then the timed repetitions
  /// go round the contenders in turn, so a slow patch of the machine (another process, frequency scaling)
  /// falls on every contender alike instead of on one. An idle second thread is alive throughout
  /// (``IdleThread``).
  ///
  /// - Parameters:
  ///   - workloads: The contenders' work, all at the same N.
  ///   - plan: Repetitions and their length.
  /// - Returns: Each workload's median and range of nanoseconds per unit.
  /// - Throws: ``MeasurementFailure`` if a contender did not complete the work it was given.
  public static func measure(
    _ workloads: [TimedWorkload], plan: MeasurementPlan
  ) throws(MeasurementFailure) -> [Statistics.Summary] {
    try measureFigures(workloads, plan: plan).map(\.time)
  }

  /// The figures of one workload: its time per unit and, if it has a ``TimedWorkload/Counter``, its count per unit.
  public struct Figures: Equatable, Sendable {
    /// Nanoseconds per unit of work.
    public var time: Statistics.Summary
    /// The counter's growth per unit over each timed repetition; `nil` without a counter.
    public var count: Statistics.Summary?
  }

  /// Measures every workload as ``measure(_:plan:)`` does, and reads each workload's counter around its timed
  /// repetitions.
  public static func measureFigures(
    _ workloads: [TimedWorkload], plan: MeasurementPlan
  ) throws(MeasurementFailure) -> [Figures] {
    IdleThread.start()
    let clock = ContinuousClock()
    var iterationsRun = Array(repeating: 0, count: workloads.count)
    var iterations: [Int] = []
    for (index, workload) in workloads.enumerated() {
      let chosen: Int
      if let fixed = plan.fixedIterations {
        chosen = fixed
      } else {
        let calibration = calibrate(workload, target: plan.repetitionTarget, clock: clock)
        chosen = calibration.iterations
        iterationsRun[index] += calibration.iterationsSpent
      }
      workload.run(chosen)
      iterationsRun[index] += chosen
      iterations.append(chosen)
    }
    var samples = Array(repeating: [Double](), count: workloads.count)
    var counts = Array(repeating: [Double](), count: workloads.count)
    for _ in 0..<plan.repetitions {
      for (index, workload) in workloads.enumerated() {
        let count = iterations[index]
        let countBefore = workload.counter?.read()
        let elapsed = clock.measure { workload.run(count) }
        if let counter = workload.counter, let countBefore {
          counts[index].append(Double(counter.read() - countBefore) / Double(count * counter.unitsPerIteration))
        }
        iterationsRun[index] += count
        samples[index].append(elapsed.nanoseconds / Double(count * workload.unitsPerIteration))
      }
    }
    for (index, workload) in workloads.enumerated() {
      let expected = iterationsRun[index] * workload.unitsPerIteration
      let completed = workload.completedUnits()
      guard completed == expected else {
        throw MeasurementFailure(
          message: "contender '\(workload.name)' completed \(completed) units of work, expected \(expected)")
      }
    }
    return zip(samples, counts).map { times, counts in
      Figures(time: Statistics.summary(times), count: counts.isEmpty ? nil : Statistics.summary(counts))
    }
  }

  /// The iterations that make one repetition last about `target`, found by growing a trial run until it takes
  /// long enough to scale from.
  ///
  /// - Parameters:
  ///   - workload: The work to calibrate.
  ///   - target: How long one repetition should take.
  ///   - clock: The clock to time it with.
  /// - Returns: The iterations chosen, and the iterations the trial runs spent.
  public static func calibrate(
    _ workload: TimedWorkload, target: Duration, clock: ContinuousClock
  ) -> (iterations: Int, iterationsSpent: Int) {
    let maximum = MeasurementPlan.maximumIterations
    var iterations = 1
    var spent = 0
    while true {
      let elapsed = clock.measure { workload.run(iterations) }
      spent += iterations
      if elapsed >= target / 4 || iterations >= maximum / 16 {
        let scaled = Double(iterations) * target.nanoseconds / max(elapsed.nanoseconds, 1)
        return (max(1, min(Int(scaled.rounded()), maximum)), spent)
      }
      iterations *= elapsed < target / 100 ? 16 : 2
    }
  }
}
