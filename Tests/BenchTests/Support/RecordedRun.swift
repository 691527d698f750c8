import Foundation

@testable import Bench

/// Runs `Bench.run` with a console that records.
struct RecordedRun {
  let status: Int32
  let output: String
  /// Standard error, without the warning every debug build prints first.
  let errors: String

  init(_ commandLine: [String], progress: ProgressLine.Mode = .silent) {
    final class Recorder {
      var output = ""
      var errors = ""
    }
    let recorder = Recorder()
    let console = Console(
      writeOutput: { recorder.output += $0 },
      writeError: { recorder.errors += $0 },
      progress: progress)
    status = Bench.run(arguments: commandLine, console: console)
    output = recorder.output
    errors = recorder.errors.replacingOccurrences(of: Bench.debugBuildWarning + "\n", with: "")
  }
}
