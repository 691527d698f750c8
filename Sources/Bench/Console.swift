import Foundation

/// Where `Bench` writes: results to standard output, progress and errors to standard error.
///
/// Tests pass closures that record instead.
struct Console {
  var writeOutput: (String) -> Void
  var writeError: (String) -> Void

  /// The process's standard output and standard error.
  static var standard: Console {
    Console(
      writeOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
      writeError: { text in FileHandle.standardError.write(Data(text.utf8)) })
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
