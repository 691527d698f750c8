import BenchHarness

/// The report `Bench` prints: per scenario, a Markdown table of N against contenders, each figure with its
/// ratio to the best figure at that N.
///
/// ```
/// fanout: ns per delivery, lower is better (one event delivered to N responders; time ÷ (events × N))
///
/// |     N |   direct-call | closure-array | weak-closure-loop |        output |
/// |------:|--------------:|--------------:|------------------:|--------------:|
/// |     1 |  1.71 (1.00×) |  2.61 (1.53×) |      4.07 (2.38×) |  9.80 (5.73×) |
/// ```
///
/// Markdown, so the same text reads in a terminal and pastes into a README.
enum TableReport {
  static func render(_ report: BenchReport) -> String {
    var text = "Bench: \(report.toolchain), \(report.date)\n"
    for scenario in orderedUnique(report.results.map(\.scenario)) {
      let rows = report.results.filter { $0.scenario == scenario }
      text += "\n" + heading(scenario: scenario, rows: rows) + "\n\n" + table(rows) + "\n"
    }
    return text
  }

  private static func heading(scenario: String, rows: [ResultRow]) -> String {
    guard let known = Scenario(rawValue: scenario) else { return "\(scenario): \(rows[0].metric), lower is better" }
    return "\(scenario): \(known.metric.description), lower is better (\(known.summary))"
  }

  private static func table(_ rows: [ResultRow]) -> String {
    let contenders = orderedUnique(rows.map(\.contender))
    let responderCounts = Set(rows.map(\.n)).sorted()
    var lines = [["N"] + contenders]
    for responderCount in responderCounts {
      let figures = rows.filter { $0.n == responderCount }
      let best = figures.map(\.value).min() ?? 0
      let cells = contenders.map { contender -> String in
        guard let row = figures.first(where: { $0.contender == contender }) else { return "–" }
        let isCount = row.unit == Metric.subscriptions.unit
        let ratio = best > 0 ? row.value / best : (row.value == best ? 1 : .infinity)
        return "\(FigureFormat.number(row.value, isCount: isCount)) (\(FigureFormat.ratio(ratio)))"
      }
      lines.append([String(responderCount)] + cells)
    }
    let widths = contenders.indices.reduce(into: [max(1, lines.map { $0[0].count }.max() ?? 1)]) { widths, index in
      widths.append(max(3, lines.map { $0[index + 1].count }.max() ?? 3))
    }
    let header = "| " + zip(lines[0], widths).map { $0.rightAligned(width: $1) }.joined(separator: " | ") + " |"
    let rule = "|" + widths.map { String(repeating: "-", count: $0 + 1) + ":" }.joined(separator: "|") + "|"
    let body = lines.dropFirst().map { cells in
      "| " + zip(cells, widths).map { $0.rightAligned(width: $1) }.joined(separator: " | ") + " |"
    }
    return ([header, rule] + body).joined(separator: "\n")
  }
}

/// The distinct elements of `values`, in the order they first appear.
func orderedUnique(_ values: [String]) -> [String] {
  var seen: Set<String> = []
  return values.filter { seen.insert($0).inserted }
}
