import BenchHarness

/// Each figure of a run against the same figure of an earlier run (`--compare OLD.json`).
///
/// A change counts only when it is outside the noise of both runs, which on a shared machine is more than the
/// spread of one run's repetitions: the whole machine gets faster or slower between runs (other processes,
/// frequency, cache placement), often by tens of percent. So a figure is marked only when all of these hold:
///
/// 1. its median moved by more than ``thresholdPercent``;
/// 2. its repetitions do not overlap the other run's (a slowdown's fastest repetition is slower than the old run's
///    slowest; a speed-up the other way round);
/// 3. it moved by more than ``thresholdPercent`` against the scenario's reference contender measured at the same
///    N in the same run (``Scenario/reference``), whose repetitions are interleaved with its own: a busier machine
///    slows both, a slower implementation slows only itself. Both, but not always alike: when the reference itself
///    moved between the runs, the machine changed, and a change of machine slows some code more than other code.
///    So the figure must also move against the reference by as much again as the reference moved (a factor of 1.5
///    when the reference got 50 % slower or faster).
///
/// A figure that passes all three is then measured again, with its scenario's other contenders, up to
/// ``confirmations`` times (``confirmRegressions(remeasure:)``); it stays a regression only if every new
/// measurement is one too. A busy machine can slow one figure for a whole run (on a 2-vCPU machine shared with
/// builds, figures of one build moved by up to 4× between runs); it rarely does so several times in a row.
///
/// The reference contenders are hand-written loops and NotificationCenter, which this package does not change;
/// they are the yardstick and are not judged. Rows without a recorded range, or whose scenario has no reference
/// (`upstream`'s exact counts), skip the checks they lack.
struct Comparison {
  /// A figure must change by more than this many percent, beyond the ranges, to be marked. Repetitions of one
  /// figure on a quiet machine differ by a few percent; a change smaller than this is not worth a look even when
  /// the ranges are narrow enough to separate.
  static let thresholdPercent = 10

  var entries: [Entry]

  struct Entry: Equatable {
    var row: ResultRow
    /// The earlier run's row for the same figure, `nil` if the earlier run did not measure it.
    var old: ResultRow?
    var verdict: Verdict
    /// The earlier figure.
    let oldValue: Double?

    init(row: ResultRow, old: ResultRow?, verdict: Verdict) {
      self.row = row
      self.old = old
      self.verdict = verdict
      // Stored rather than computed from `old`: Swift 6.3's optimiser crashes on the computed form
      // ("Found outside of lifetime use") when the comparison table reads it.
      self.oldValue = old?.value
    }

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
    /// The yardstick of its scenario: not judged.
    case reference = "reference"
    /// Looked like a regression, but a new measurement did not confirm it.
    case unconfirmed = "noise (not confirmed)"
    /// A figure that describes its run rather than ranks it (``Metric/isLowerBetter``): not judged.
    case notJudged = "not judged"
  }

  /// How many times a regression is measured again before it is reported.
  static let confirmations = 2

  /// Measures every regression again with `remeasure` (given a scenario name and N, it returns the new rows of that
  /// scenario at that N) and keeps only those that every new measurement confirms.
  mutating func confirmRegressions<Failure: Error>(
    remeasure: (_ scenario: String, _ n: Int) throws(Failure) -> [ResultRow]
  ) throws(Failure) {
    for index in entries.indices where entries[index].verdict == .regression {
      let entry = entries[index]
      guard let old = entry.old else { continue }
      for _ in 0..<Self.confirmations {
        let rows = try remeasure(entry.row.scenario, entry.row.n)
        let current = Dictionary(rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        guard let again = current[entry.row.key] else { break }
        let yardstick = Self.yardstick(for: again, new: current, old: oldRows)
        if Self.verdict(again, against: old, yardstick: yardstick) != .regression {
          entries[index].verdict = .unconfirmed
          break
        }
      }
    }
  }

  /// Compares every figure of `current` with the figure of `baseline` for the same scenario, contender, N and
  /// metric. Every metric it judges is better when lower; the figures that describe a run rather than rank it, the
  /// overload scenarios', are marked `not judged`.
  init(current: BenchReport, baseline: BenchReport) {
    let old = Dictionary(baseline.results.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let new = Dictionary(current.results.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    oldRows = old
    entries = current.results.map { row in
      guard let oldRow = old[row.key] else { return Entry(row: row, old: nil, verdict: .new) }
      if let metric = Metric(rawValue: row.metric), !metric.isLowerBetter {
        return Entry(row: row, old: oldRow, verdict: .notJudged)
      }
      if row.contender == Scenario(rawValue: row.scenario)?.reference?.name {
        return Entry(row: row, old: oldRow, verdict: .reference)
      }
      let yardstick = Self.yardstick(for: row, new: new, old: old)
      return Entry(row: row, old: oldRow, verdict: Self.verdict(row, against: oldRow, yardstick: yardstick))
    }
  }

  /// The earlier run's rows, by figure.
  private let oldRows: [ResultRow.Key: ResultRow]

  /// The reference contender's row at `row`'s N in each run, if the scenario has one and both runs measured it.
  private static func yardstick(
    for row: ResultRow, new: [ResultRow.Key: ResultRow], old: [ResultRow.Key: ResultRow]
  ) -> (new: ResultRow, old: ResultRow)? {
    guard let reference = Scenario(rawValue: row.scenario)?.reference?.name else { return nil }
    var key = row.key
    key.contender = reference
    guard let newReference = new[key], let oldReference = old[key] else { return nil }
    return (newReference, oldReference)
  }

  /// Whether `row` is worse, better or no different from `old`, beyond both runs' noise; `yardstick` is the
  /// reference contender's row in each run, if the scenario has one.
  static func verdict(
    _ row: ResultRow, against old: ResultRow, yardstick: (new: ResultRow, old: ResultRow)? = nil
  ) -> Verdict {
    let threshold = Double(thresholdPercent) / 100
    var isWorse = row.value > old.value * (1 + threshold)
    var isBetter = row.value < old.value * (1 - threshold)
    if let newMinimum = row.min, let newMaximum = row.max, let oldMinimum = old.min, let oldMaximum = old.max {
      isWorse = isWorse && newMinimum > oldMaximum
      isBetter = isBetter && newMaximum < oldMinimum
    }
    if let yardstick, yardstick.new.value > 0, yardstick.old.value > 0 {
      let relativeChange = (row.value / yardstick.new.value) / (old.value / yardstick.old.value)
      // How far the machine moved between the runs, as a factor of at least 1 either way.
      let machineChange = max(yardstick.new.value / yardstick.old.value, yardstick.old.value / yardstick.new.value)
      isWorse = isWorse && relativeChange > (1 + threshold) * machineChange
      isBetter = isBetter && relativeChange < (1 - threshold) / machineChange
    }
    return isWorse ? .regression : isBetter ? .improvement : .unchanged
  }

  var regressions: [Entry] { entries.filter { $0.verdict == .regression } }
  var improvements: [Entry] { entries.filter { $0.verdict == .improvement } }
}
