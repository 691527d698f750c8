import Foundation
import Synchronization

/// The check's assertions: each printed as it is made, `ok - …` or `not ok - …`, then counted in the summary line.
final class Report: Sendable {
  private let counts = Mutex((passed: 0, failed: 0))

  var passed: Int { counts.withLock { $0.passed } }
  var failed: Int { counts.withLock { $0.failed } }

  /// Records an assertion; returns whether it held.
  @discardableResult
  func check(_ condition: Bool, _ statement: String, otherwise detail: @autoclosure () -> String = "") -> Bool {
    if condition {
      counts.withLock { $0.passed += 1 }
      say("ok - \(statement)")
    } else {
      counts.withLock { $0.failed += 1 }
      let detail = detail()
      say("not ok - \(statement)\(detail.isEmpty ? "" : "\n  \(detail)")")
    }
    return condition
  }

  /// Prints a measured figure, which is not an assertion, as `figure NAME VALUE` for scripts to read.
  func figure(_ name: String, _ value: String) {
    say("figure \(name) \(value)")
  }

  /// `server-example: N passed, M failed`.
  var summary: String {
    "server-example: \(passed) passed, \(failed) failed"
  }
}

extension Duration {
  /// Milliseconds, with one decimal.
  var milliseconds: String {
    let (seconds, attoseconds) = components
    return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
  }
}

/// The `fraction` quantile of `values` by nearest rank (`0.99` for p99).
func quantile(_ values: [Duration], _ fraction: Double) -> Duration {
  guard !values.isEmpty else { return .zero }
  let sorted = values.sorted()
  let rank = Int((fraction * Double(sorted.count)).rounded(.up))
  return sorted[min(max(rank, 1), sorted.count) - 1]
}

/// Writes a line to standard output at once, unbuffered also into a pipe or a file: a long run shows where it stands.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
