import BenchHarness

/// The report `Bench` prints: per scenario and figure, a Markdown table of N against contenders, each figure with
/// its ratio to the scenario's reference contender at that N, then a legend of the contenders.
///
/// ```
/// fanout: ns per delivery, lower is better (one event delivered to N responders; time ÷ (events × N))
/// In brackets: each figure ÷ weak-box-loop's at the same N.
///
/// |     N |   direct-call | weak-box-loop |        output |
/// |------:|--------------:|--------------:|--------------:|
/// |     1 | 3.15 (0.098×) |  32.1 (1.00×) |  35.5 (1.11×) |
/// ```
///
/// The ratio's base is one contender for the whole table, so a column reads down without changing meaning.
/// Markdown, so the same text reads in a terminal and pastes into a document.
enum TableReport {
  static func render(_ report: BenchReport) -> String {
    var text = "Bench: \(toolchain(report.toolchain, besides: report.machine)), \(report.date)"
    text += (report.machine.map { "; \($0)" } ?? "") + "\n"
    for scenario in orderedUnique(report.results.map(\.scenario)) {
      let rows = report.results.filter { $0.scenario == scenario }
      for (index, metric) in orderedUnique(rows.map(\.metric)).enumerated() {
        let figures = rows.filter { $0.metric == metric }
        let base = base(of: figures)
        text += "\n" + heading(scenario: scenario, metric: metric, base: base) + "\n\n"
        text += table(figures, base: base) + "\n"
        if let verdict = TableVerdict(figures) {
          text += verdict.description + "\n"
        }
        // Under the scenario's first table: it speaks of two of its figures.
        if index == 0, let verdict = OverloadVerdict(rows) {
          text += verdict.description + "\n"
        }
      }
      text += "\n" + legend(scenario: scenario, contenders: orderedUnique(rows.map(\.contender))) + "\n"
    }
    return text
  }

  /// `toolchain` without the operating system and architecture that `machine` names first, so a heading that shows
  /// both says them once: `Swift 6.3, release build` beside `Linux x86_64, 2 vCPUs (…), 24 GiB`.
  static func toolchain(_ toolchain: String, besides machine: String?) -> String {
    guard let machine else { return toolchain }
    let parts = toolchain.components(separatedBy: ", ")
    let kept = parts.filter { part in machine != part && !machine.hasPrefix(part + ",") }
    return kept.count == parts.count ? toolchain : kept.joined(separator: ", ")
  }

  /// What a table shows and, when it has ratios, what they are against.
  static func heading(scenario: String, metric: String, base: String?) -> String {
    let known = Scenario(rawValue: scenario)
    let summary = known.map { known in Metric(rawValue: metric).map { known.summary(of: $0) } ?? known.summary }
    var heading = "\(scenario): \(words(of: metric))" + (summary.map { " (\($0))" } ?? "")
    if let base {
      heading += "\nIn brackets: each figure ÷ \(base)'s at the same N."
    }
    return heading
  }

  /// A metric's heading words, and `lower is better` where a lower figure is a better one (``Metric/isLowerBetter``).
  static func words(of metric: String) -> String {
    guard let known = Metric(rawValue: metric) else { return metric + ", lower is better" }
    return known.description + (known.isLowerBetter ? ", lower is better" : "")
  }

  /// The contender a table's ratios are against: its scenario's reference contender, or the first contender when the
  /// table lacks it; `nil` for figures that show no ratio (counts).
  static func base(of rows: [ResultRow]) -> String? {
    guard let first = rows.first, Metric(rawValue: first.metric)?.showsRatio ?? true else { return nil }
    let contenders = orderedUnique(rows.map(\.contender))
    if let reference = Scenario(rawValue: first.scenario)?.reference?.name, contenders.contains(reference) {
      return reference
    }
    return contenders.first
  }

  /// One scenario's figures of one metric: N down, contenders across, each figure with its ratio to `base`'s at the
  /// same N (`–` where `base` has no figure at that N). Names in backticks when `codeNames`, for documents.
  static func table(_ rows: [ResultRow], base: String?, codeNames: Bool = false) -> String {
    let contenders = orderedUnique(rows.map(\.contender))
    let responderCounts = Set(rows.map(\.n)).sorted()
    var lines = [["N"] + contenders.map { codeNames ? "`\($0)`" : $0 }]
    for responderCount in responderCounts {
      let figures = rows.filter { $0.n == responderCount }
      let baseValue = base.flatMap { base in figures.first { $0.contender == base }?.value }
      let cells = contenders.map { contender -> String in
        guard let row = figures.first(where: { $0.contender == contender }) else { return "–" }
        let number =
          row.unit == ratioUnit
          ? FigureFormat.ratio(row.value)
          : Metric(rawValue: row.metric)?.formatted(row.value)
            ?? FigureFormat.number(row.value, isCount: row.unit == Metric.subscriptions.unit)
        guard base != nil else { return number }
        guard let baseValue else { return "\(number) (–)" }
        let ratio = baseValue > 0 ? row.value / baseValue : (row.value == 0 ? 1 : .infinity)
        return "\(number) (\(FigureFormat.ratio(ratio)))"
      }
      lines.append([String(responderCount)] + cells)
    }
    return MarkdownTable.render(lines)
  }

  /// The unit of a row whose value is already a ratio, written as one.
  static let ratioUnit = "×"

  /// One line per contender saying what it is in `scenario`.
  static func legend(scenario: String, contenders: [String]) -> String {
    let width = (contenders.map(\.count).max() ?? 0) + 2
    let lines = contenders.map { contender in
      let meaning =
        if let known = Scenario(rawValue: scenario), let name = ContenderName(rawValue: contender) {
          name.legend(in: known)
        } else {
          "measured by Benchmarks/Peers (see its README)"
        }
      return "  " + contender.leftAligned(width: width) + meaning
    }
    return "Contenders:\n" + lines.joined(separator: "\n")
  }
}

/// Lines of cells as a Markdown table, the first line the header, every column right-aligned to its widest cell.
enum MarkdownTable {
  static func render(_ lines: [[String]]) -> String {
    guard let header = lines.first else { return "" }
    let widths = header.indices.map { column in max(3, lines.map { $0[column].count }.max() ?? 3) }
    let format = { (cells: [String]) in
      "| " + zip(cells, widths).map { $0.rightAligned(width: $1) }.joined(separator: " | ") + " |"
    }
    let rule = "|" + widths.map { String(repeating: "-", count: $0 + 1) + ":" }.joined(separator: "|") + "|"
    return ([format(header), rule] + lines.dropFirst().map(format)).joined(separator: "\n")
  }
}

/// The distinct elements of `values`, in the order they first appear.
func orderedUnique(_ values: [String]) -> [String] {
  var seen: Set<String> = []
  return values.filter { seen.insert($0).inserted }
}
