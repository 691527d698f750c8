/// The JSON report: one object, `schema`, `toolchain`, `date`, `machine` when known, then a `results` row per line.
///
/// Written by hand so the keys come in the documented order and each row stays on one line, which keeps
/// committed results readable in a diff. Read back with `JSONDecoder`.
public enum JSONReport {
  /// The report as JSON text.
  ///
  /// - Parameter report: The run.
  /// - Returns: The JSON, keys in documented order, one row per line, ending in a newline.
  public static func render(_ report: BenchReport) -> String {
    let rows = report.results.map { row in
      "    {\"scenario\": \(quoted(row.scenario)), \"contender\": \(quoted(row.contender)), \"n\": \(row.n), "
        + "\"metric\": \(quoted(row.metric)), \"value\": \(number(row.value)), \"unit\": \(quoted(row.unit))"
        + spread(row) + "}"
    }
    let machine = report.machine.map { "\n  \"machine\": \(quoted($0))," } ?? ""
    return """
      {
        "schema": \(report.schema),
        "toolchain": \(quoted(report.toolchain)),
        "date": \(quoted(report.date)),\(machine)
        "results": [
      \(rows.joined(separator: ",\n"))
        ]
      }

      """
  }

  /// A JSON string literal.
  public static func quoted(_ string: String) -> String {
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
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    var text = FigureFormat.decimal(value, fractionDigits: 4)
    while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) {
      text.removeLast()
    }
    return text == "-0" ? "0" : text
  }

  /// `, "min": …, "max": …` when the row has its spread.
  private static func spread(_ row: ResultRow) -> String {
    guard let minimum = row.min, let maximum = row.max else { return "" }
    return ", \"min\": \(number(minimum)), \"max\": \(number(maximum))"
  }
}
