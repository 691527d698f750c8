import BenchHarness
import Foundation

extension JSONReport {
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
