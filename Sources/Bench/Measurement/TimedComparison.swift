/// Times several contenders at the same work, each figure the median of interleaved repetitions.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum TimedComparison {
  /// Measures every workload; returns nanoseconds per unit of work, in the order of `workloads`.
  ///
  /// Each workload first calibrates its iterations so a repetition takes `plan.repetitionTarget` (unless
  /// `plan.fixedIterations` fixes them) and runs one untimed warm-up repetition. Then the timed repetitions
  /// go round the contenders in turn, so a slow patch of the machine (another process, frequency scaling)
  /// falls on every contender alike instead of on one.
  ///
  /// - Throws: ``MeasurementFailure`` if a contender did not complete the work it was given.
  static func measure(_ workloads: [TimedWorkload], plan: MeasurementPlan) throws(MeasurementFailure) -> [Double] {
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
    for _ in 0..<plan.repetitions {
      for (index, workload) in workloads.enumerated() {
        let count = iterations[index]
        let elapsed = clock.measure { workload.run(count) }
        iterationsRun[index] += count
        samples[index].append(elapsed.nanoseconds / Double(count * workload.unitsPerIteration))
      }
    }
    for (index, workload) in workloads.enumerated() {
      let expected = iterationsRun[index] * workload.unitsPerIteration
      let completed = workload.completedUnits()
      guard completed == expected else {
        throw MeasurementFailure(
          message: "contender '\(workload.contender.name)' completed \(completed) units of work, expected \(expected)")
      }
    }
    return samples.map(Statistics.median)
  }

  /// The iterations that make one repetition last about `target`, found by growing a trial run until it takes
  /// long enough to scale from.
  static func calibrate(
    _ workload: TimedWorkload, target: Duration, clock: ContinuousClock
  ) -> (iterations: Int, iterationsSpent: Int) {
    var iterations = 1
    var spent = 0
    while true {
      let elapsed = clock.measure { workload.run(iterations) }
      spent += iterations
      if elapsed >= target / 4 || iterations >= Arguments.maximumIterations / 16 {
        let scaled = Double(iterations) * target.nanoseconds / max(elapsed.nanoseconds, 1)
        return (max(1, min(Int(scaled.rounded()), Arguments.maximumIterations)), spent)
      }
      iterations *= elapsed < target / 100 ? 16 : 2
    }
  }
}
