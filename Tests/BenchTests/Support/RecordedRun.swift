@testable import Bench

/// Runs `Bench.run` with a console that records.
struct RecordedRun {
  let status: Int32
  let output: String
  let errors: String

  init(_ commandLine: [String]) {
    final class Recorder {
      var output = ""
      var errors = ""
    }
    let recorder = Recorder()
    let console = Console(
      writeOutput: { recorder.output += $0 },
      writeError: { recorder.errors += $0 })
    status = Bench.run(arguments: commandLine, console: console)
    output = recorder.output
    errors = recorder.errors
  }
}
