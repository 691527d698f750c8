import BenchHarness
import Foundation

/// `swift run -c release Bench`: the cost of delivering events to N responders, measured against its rivals.
///
/// See ``Usage`` for the command line and Benchmarks/METHODOLOGY.md for how each figure is made.
@main
enum Bench {
  static func main() {
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
      Console.standard.printError("Bench: error: needs macOS 13, iOS 16, tvOS 16 or watchOS 9 for ContinuousClock")
      exit(1)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    // The main-actor scenarios deliver through the main queue while the measuring thread waits, so the main thread
    // serves the main queue and the run goes on a thread of its own, which ends the process. The main thread serves it
    // through its run loop, as an app's does; valgrind, which counts Bench's instructions, cannot run a process whose
    // main thread went into `dispatchMain()`, the fallback should the run loop ever return.
    let measuring = Thread {
      exit(run(arguments: arguments, console: .standard))
    }
    measuring.name = "Bench"
    // As much stack as the main thread has: a reentrant send runs in constant stack, but user code may not.
    measuring.stackSize = 8 << 20
    measuring.start()
    RunLoop.main.run()
    dispatchMain()
  }

  /// Runs one command line and returns the exit status: 0 on success, 1 if a measurement or a file failed or
  /// (with `--fail-on-regression`) a figure regressed, ``ArgumentError/exitStatus`` (2) on a bad command line.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  static func run(arguments commandLine: [String], console: Console) -> Int32 {
    let arguments: Arguments
    let baseline: BenchReport?
    let peers: BenchReport?
    do {
      arguments = try Arguments.parse(commandLine)
      if arguments.showsHelp {
        console.writeOutput(Usage.text)
        return 0
      }
      if arguments.rendersDocs {
        return FigureDocs.run(checkOnly: arguments.checksDocs, console: console)
      }
      // Everything a command line names is checked before the run, so a typo fails at once, not minutes later.
      for (option, path) in outputPaths(arguments) {
        try checkWritable(path, option: option)
      }
      baseline = try arguments.comparePath.map { path throws(ArgumentError) in try JSONReport.load(from: path) }
      peers = try arguments.peersPath.map { path throws(ArgumentError) in
        try JSONReport.load(from: path, option: "--peers")
      }
    } catch {
      console.printError("Bench: error: \(error.message)")
      console.printError(Usage.helpPointer)
      return ArgumentError.exitStatus
    }

    if Toolchain.isDebugBuild {
      console.printError(debugBuildWarning)
    }
    let progress = ProgressLine(mode: console.progress, write: console.writeError)
    let runner = Runner(
      arguments: arguments, progress: progress.show,
      notice: { note in
        progress.clear()
        console.printError("Bench: note: \(note)")
      })
    let report: BenchReport
    var comparison: Comparison?
    do {
      let rows = try runner.run()
      report = BenchReport(
        toolchain: Toolchain.description, date: ISO8601DateFormatter().string(from: Date()),
        machine: Machine.description, results: rows)
      if let baseline {
        comparison = try compare(report, with: baseline, runner: runner, progress: progress)
      }
      progress.clear()
    } catch {
      progress.clear()
      console.printError("Bench: error: \(error.message)")
      return 1
    }
    // The peers' rows are shown beside this run's, and written to no file but the chart.
    var shown = report
    shown.results += peers?.results ?? []
    console.writeOutput(TableReport.render(shown))
    var status: Int32 = 0
    if let baseline, let comparison, let path = arguments.comparePath {
      console.writeOutput("\n" + ComparisonReport.render(comparison, baselinePath: path, baseline: baseline))
      if arguments.failsOnRegression && !comparison.regressions.isEmpty {
        console.printError("Bench: error: \(comparison.regressions.count) figure(s) regressed against \(path)")
        status = 1
      }
    }

    let files = [
      (arguments.jsonPath, JSONReport.render(report)), (arguments.csvPath, CSVReport.render(report)),
      (arguments.svgPath, SVGChart.render(shown)),
    ]
    for case (let path?, let text) in files {
      do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        console.printError("Bench: wrote \(path)")
      } catch {
        console.printError("Bench: error: cannot write '\(path)': \(error.localizedDescription)")
        status = 1
      }
    }
    return status
  }

  /// What a debug build says first.
  static let debugBuildWarning = "Bench: warning: a debug build; figures say little about release code (use -c release)"

  /// `report` against `baseline`, each regression measured again before it counts.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  private static func compare(
    _ report: BenchReport, with baseline: BenchReport, runner: Runner, progress: ProgressLine
  ) throws(MeasurementFailure) -> Comparison {
    var comparison = Comparison(current: report, baseline: baseline)
    if !comparison.regressions.isEmpty {
      progress.show("compare: measuring \(comparison.regressions.count) possible regression(s) again")
    }
    try comparison.confirmRegressions { (scenario, n) throws(MeasurementFailure) in
      guard let scenario = Scenario(rawValue: scenario) else { return [] }
      return try runner.rows(of: scenario, responderCount: n)
    }
    return comparison
  }

  private static func outputPaths(_ arguments: Arguments) -> [(option: String, path: String)] {
    [("--json", arguments.jsonPath), ("--csv", arguments.csvPath), ("--svg", arguments.svgPath)]
      .compactMap { option, path in path.map { (option, $0) } }
  }

  /// Fails unless `path` can be created or replaced: its directory exists and it is not a directory itself.
  private static func checkWritable(_ path: String, option: String) throws(ArgumentError) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw ArgumentError(message: "'\(path)' given to '\(option)' is a directory; give a file path")
    }
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      throw ArgumentError(message: "directory '\(directory)' of '\(path)' given to '\(option)' does not exist")
    }
    guard FileManager.default.isWritableFile(atPath: directory) else {
      throw ArgumentError(message: "directory '\(directory)' of '\(path)' given to '\(option)' is not writable")
    }
  }
}
