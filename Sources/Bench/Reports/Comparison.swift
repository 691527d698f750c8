/// Each figure of a run against the same figure of an earlier run (`--compare OLD.json`).
struct Comparison: Equatable {
  /// A figure more than this many percent worse than before is a regression; as much better, an improvement.
  /// Timings on a quiet machine repeat within a few percent; counts and bytes repeat exactly.
  static let regressionThresholdPercent = 10

  var entries: [Entry]

  struct Entry: Equatable {
    var row: ResultRow
    /// The earlier figure, `nil` if the earlier run did not measure it.
    var oldValue: Double?
    var verdict: Verdict

    /// The relative change, `+0.25` for 25 % more; `nil` without an earlier figure.
    var change: Double? {
      guard let oldValue else { return nil }
      guard oldValue != 0 else { return row.value == 0 ? 0 : .infinity }
      return (row.value - oldValue) / oldValue
    }
  }

  enum Verdict: String, Equatable {
    case regression = "REGRESSION"
    case improvement = "improved"
    case unchanged = ""
    case new = "new"
  }

  /// Compares every figure of `current` with the figure of `baseline` for the same scenario, contender, N and
  /// metric. Every metric is better when lower.
  init(current: BenchReport, baseline: BenchReport) {
    let old = Dictionary(baseline.results.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    let threshold = Double(Self.regressionThresholdPercent) / 100
    entries = current.results.map { row in
      guard let oldValue = old[row.key] else { return Entry(row: row, oldValue: nil, verdict: .new) }
      var entry = Entry(row: row, oldValue: oldValue, verdict: .unchanged)
      if let change = entry.change, change > threshold {
        entry.verdict = .regression
      } else if let change = entry.change, change < -threshold {
        entry.verdict = .improvement
      }
      return entry
    }
  }

  var regressions: [Entry] { entries.filter { $0.verdict == .regression } }
  var improvements: [Entry] { entries.filter { $0.verdict == .improvement } }
}
