import Foundation

/// Where `Bench` writes: results to standard output, progress and errors to standard error.
///
/// Tests pass closures that record instead.
struct Console {
  var writeOutput: (String) -> Void
  var writeError: (String) -> Void
  /// How progress is shown on standard error.
  var progress: ProgressLine.Mode = .silent

  /// The process's standard output and standard error; progress live on a terminal, silent elsewhere.
  static var standard: Console {
    Console(
      writeOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
      writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
      progress: .choose(
        standardErrorIsTerminal: isatty(STDERR_FILENO) != 0, environment: ProcessInfo.processInfo.environment))
  }

  /// Writes `line` and a newline to standard output.
  func print(_ line: String) {
    writeOutput(line + "\n")
  }

  /// Writes `line` and a newline to standard error.
  func printError(_ line: String) {
    writeError(line + "\n")
  }
}
