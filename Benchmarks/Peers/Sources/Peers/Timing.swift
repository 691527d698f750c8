import Foundation

/// The timing loop of Bench (Sources/Bench/Measurement/TimedComparison.swift), cut down: calibrate the iterations
/// to a target duration, warm up once, then the median of interleaved timed repetitions.
enum Timing {
  struct Workload {
    var name: String
    /// Deliveries one iteration makes: N.
    var unitsPerIteration: Int
    var run: (_ iterations: Int) -> Void
    /// Deliveries the responders counted; must match what the loop ran.
    var completedUnits: () -> Int
  }

  /// Nanoseconds per delivery for each workload, in order; exits with status 1 if one skipped deliveries.
  static func measure(_ workloads: [Workload], repetitions: Int, target: Duration) -> [Double] {
    let clock = ContinuousClock()
    var ran = Array(repeating: 0, count: workloads.count)
    var iterations: [Int] = []
    for (index, workload) in workloads.enumerated() {
      var count = 1
      while true {
        let elapsed = clock.measure { workload.run(count) }
        ran[index] += count
        if elapsed >= target / 4 {
          count = max(1, Int(Double(count) * nanoseconds(target) / nanoseconds(elapsed)))
          break
        }
        count *= elapsed < target / 100 ? 16 : 2
      }
      workload.run(count)
      ran[index] += count
      iterations.append(count)
    }
    var samples = Array(repeating: [Double](), count: workloads.count)
    for _ in 0..<repetitions {
      for (index, workload) in workloads.enumerated() {
        let elapsed = clock.measure { workload.run(iterations[index]) }
        ran[index] += iterations[index]
        samples[index].append(nanoseconds(elapsed) / Double(iterations[index] * workload.unitsPerIteration))
      }
    }
    for (index, workload) in workloads.enumerated()
    where workload.completedUnits() != ran[index] * workload.unitsPerIteration {
      FileHandle.standardError.write(Data("Peers: error: \(workload.name) skipped deliveries\n".utf8))
      exit(1)
    }
    return samples.map { values in
      let sorted = values.sorted()
      let middle = sorted.count / 2
      return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
  }

  private static func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
  }
}
