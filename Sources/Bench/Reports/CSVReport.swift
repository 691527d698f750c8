import BenchHarness
import Foundation

/// The results as CSV: a header line, then one line per figure, columns as the JSON row keys.
enum CSVReport {
  static let header = ["scenario", "contender", "n", "metric", "value", "unit"]

  static func render(_ report: BenchReport) -> String {
    let lines = report.results.map { row in
      [row.scenario, row.contender, String(row.n), row.metric, JSONReport.number(row.value), row.unit]
        .map(field).joined(separator: ",")
    }
    return ([header.joined(separator: ",")] + lines).joined(separator: "\n") + "\n"
  }

  /// A field, quoted if it holds a comma, a quote or a line break.
  private static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
