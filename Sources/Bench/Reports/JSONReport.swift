import Foundation

/// The JSON report: one object, `schema`, `toolchain`, `date`, then a `results` row per line.
///
/// Written by hand so the keys come in the documented order and each row stays on one line, which keeps
/// committed results readable in a diff. Read back with `JSONDecoder` (``load(from:)``).
enum JSONReport {
  static func render(_ report: BenchReport) -> String {
    let rows = report.results.map { row in
      "    {\"scenario\": \(quoted(row.scenario)), \"contender\": \(quoted(row.contender)), \"n\": \(row.n), "
        + "\"metric\": \(quoted(row.metric)), \"value\": \(number(row.value)), \"unit\": \(quoted(row.unit))}"
    }
    return """
      {
        "schema": \(report.schema),
        "toolchain": \(quoted(report.toolchain)),
        "date": \(quoted(report.date)),
        "results": [
      \(rows.joined(separator: ",\n"))
        ]
      }

      """
  }

  /// Reads a report an earlier run wrote.
  ///
  /// - Throws: ``ArgumentError`` naming `path` if it cannot be read, is not such a report, or has another schema.
  static func load(from path: String, option: String = "--compare") throws(ArgumentError) -> BenchReport {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ArgumentError(message: "cannot read '\(path)' given to '\(option)': \(reason(error))")
    }
    let report: BenchReport
    do {
      report = try JSONDecoder().decode(BenchReport.self, from: data)
    } catch {
      throw ArgumentError(message: "'\(path)' given to '\(option)' is not a Bench JSON report: \(reason(error))")
    }
    guard report.schema == BenchReport.currentSchema else {
      throw ArgumentError(
        message: "'\(path)' given to '\(option)' has schema \(report.schema); this Bench reads schema "
          + "\(BenchReport.currentSchema)")
    }
    return report
  }

  /// A JSON string literal.
  static func quoted(_ string: String) -> String {
    var literal = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": literal += "\\\""
      case "\\": literal += "\\\\"
      case "\n": literal += "\\n"
      case "\r": literal += "\\r"
      case "\t": literal += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: literal.unicodeScalars.append(scalar)
      }
    }
    return literal + "\""
  }

  /// A JSON number: whole values without a point, others to four decimals (a hundredth of a picosecond for
  /// nanosecond figures), trailing zeros dropped. Not-a-number and infinity, which JSON lacks, become `null`.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    var text = FigureFormat.decimal(value, fractionDigits: 4)
    while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) {
      text.removeLast()
    }
    return text == "-0" ? "0" : text
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context): context.debugDescription
    case DecodingError.keyNotFound(let key, _): "missing key '\(key.stringValue)'"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    default: (error as NSError).localizedDescription
    }
  }
}
