import BenchHarness

/// The `--compare` table: every figure with its earlier value and change, regressions marked.
///
/// ```
/// Compared with old.json (Swift 6.3, Linux x86_64, release build, 2025-01-01T00:00:00Z): 1 regression,
/// 0 improvements; marked: a change beyond ±10%, outside both runs' repetitions and beyond ±10% against the
/// scenario's reference contender.
///
/// | scenario | contender |   N |     old | old range |     new | new range | change |            |
/// |----------|-----------|----:|--------:|----------:|--------:|----------:|-------:|------------|
/// | fanout   | output    | 100 | 3.05 ns | 2.98–3.20 | 4.10 ns | 3.95–4.31 | +34.4% | REGRESSION |
/// ```
enum ComparisonReport {
  static func render(_ comparison: Comparison, baselinePath: String, baseline: BenchReport) -> String {
    let regressions = comparison.regressions.count
    let improvements = comparison.improvements.count
    let summary =
      "Compared with \(baselinePath) (\(baseline.toolchain), \(baseline.date)): "
      + "\(regressions) \(regressions == 1 ? "regression" : "regressions"), "
      + "\(improvements) \(improvements == 1 ? "improvement" : "improvements"); "
      + "marked: a change beyond ±\(Comparison.thresholdPercent)%, outside both runs' repetitions and beyond "
      + "±\(Comparison.thresholdPercent)% against the scenario's reference contender, times as much as the "
      + "reference moved."
    var lines = [["scenario", "contender", "N", "old", "old range", "new", "new range", "change", ""]]
    for entry in comparison.entries {
      let row = entry.row
      let oldRange = entry.old.map { range($0) } ?? "–"
      lines.append([
        row.scenario, row.contender, String(row.n),
        entry.oldValue.map { FigureFormat.value($0, unit: row.unit) } ?? "–",
        oldRange,
        FigureFormat.value(row.value, unit: row.unit),
        range(row),
        entry.change.map(FigureFormat.percentage) ?? "–",
        entry.verdict.rawValue,
      ])
    }
    let rightAligned: Set = [2, 3, 4, 5, 6, 7]
    let widths = (0..<9).map { column in max(3, lines.map { $0[column].count }.max() ?? 3) }
    let format = { (cells: [String]) in
      "| "
        + cells.enumerated().map { column, cell in
          rightAligned.contains(column)
            ? cell.rightAligned(width: widths[column]) : cell.leftAligned(width: widths[column])
        }.joined(separator: " | ") + " |"
    }
    let rule =
      "|"
      + widths.enumerated().map { column, width in
        String(repeating: "-", count: width + 1) + (rightAligned.contains(column) ? ":" : "-")
      }.joined(separator: "|") + "|"
    return ([summary, "", format(lines[0]), rule] + lines.dropFirst().map(format)).joined(separator: "\n") + "\n"
  }

  /// The smallest and largest repetition, `–` when the row has none.
  private static func range(_ row: ResultRow) -> String {
    guard let minimum = row.min, let maximum = row.max else { return "–" }
    let isCount = row.unit == "count"
    return FigureFormat.number(minimum, isCount: isCount) + "–" + FigureFormat.number(maximum, isCount: isCount)
  }
}
