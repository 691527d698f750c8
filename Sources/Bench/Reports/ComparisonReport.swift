/// The `--compare` table: every figure with its earlier value and change, regressions marked.
///
/// ```
/// Compared with old.json (Swift 6.3, Linux x86_64, release build, 2025-01-01T00:00:00Z): 1 regression,
/// 0 improvements; a change beyond ±10% is marked.
///
/// | scenario | contender |   N |     old |     new | change |            |
/// |----------|-----------|----:|--------:|--------:|-------:|------------|
/// | fanout   | output    | 100 | 3.05 ns | 4.10 ns | +34.4% | REGRESSION |
/// ```
enum ComparisonReport {
  static func render(_ comparison: Comparison, baselinePath: String, baseline: BenchReport) -> String {
    let regressions = comparison.regressions.count
    let improvements = comparison.improvements.count
    let summary =
      "Compared with \(baselinePath) (\(baseline.toolchain), \(baseline.date)): "
      + "\(regressions) \(regressions == 1 ? "regression" : "regressions"), "
      + "\(improvements) \(improvements == 1 ? "improvement" : "improvements"); "
      + "a change beyond ±\(Comparison.regressionThresholdPercent)% is marked."
    var lines = [["scenario", "contender", "N", "old", "new", "change", ""]]
    for entry in comparison.entries {
      let row = entry.row
      lines.append([
        row.scenario, row.contender, String(row.n),
        entry.oldValue.map { FigureFormat.value($0, unit: row.unit) } ?? "–",
        FigureFormat.value(row.value, unit: row.unit),
        entry.change.map(FigureFormat.percentage) ?? "–",
        entry.verdict.rawValue,
      ])
    }
    let rightAligned: Set = [2, 3, 4, 5]
    let widths = (0..<7).map { column in max(3, lines.map { $0[column].count }.max() ?? 3) }
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
}
