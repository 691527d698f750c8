import BenchHarness
import Foundation
import Testing

@testable import Bench

/// The whole command line, as `main` runs it, with standard output and error recorded.
extension BenchTestSuite {
  @Suite struct BenchCommandTests {
    @Test func helpPrintsTheUsageAndALegendOfEveryContender() {
      let run = RecordedRun(["--help"])
      #expect(run.status == 0)
      #expect(run.output.contains("USAGE: swift run -c release Bench"))
      for scenario in Scenario.allCases {
        #expect(run.output.contains(scenario.name))
        for contender in scenario.contenders {
          #expect(run.output.contains("\(contender.name.leftAligned(width: 20))\(contender.legend(in: scenario))"))
        }
      }
      #expect(run.output.contains("--render-docs"))
      #expect(run.output.contains("  actor:\n    async-stream"), "the actor scenario's legend under its own name")
      #expect(run.errors.isEmpty)
    }

    @Test(arguments: [
      ["--bogus"], ["--n", "0"], ["--scenario", "nope"], ["--iterations", "x"], ["--json"], ["stray"],
      ["--scenario", "actor", "--contender", "main-queue-async"], ["--scenario", "actors"],
    ])
    func aBadArgumentExitsWithStatus2AndPrintsTheErrorAndWhereTheUsageIs(commandLine: [String]) {
      let run = RecordedRun(commandLine)
      #expect(run.status == 2)
      #expect(run.errors.hasPrefix("Bench: error: "))
      #expect(run.errors.hasSuffix(Usage.helpPointer + "\n"))
      #expect(!run.errors.contains("USAGE:"))
      #expect(run.output.isEmpty)
    }

    @Test func aMissingCompareFileIsABadArgument() {
      let run = RecordedRun(["--compare", "/nonexistent/old.json", "--scenario", "fanout", "--n", "1"])
      #expect(run.status == 2)
      #expect(run.errors.contains("cannot read '/nonexistent/old.json' given to '--compare'"))
    }

    @Test func aCompareFileOfAnotherShapeIsABadArgument() throws {
      let directory = try TemporaryDirectory()
      let path = directory.path("old.json")
      try Data(#"{"schema": 1, "results": 3}"#.utf8).write(to: URL(fileURLWithPath: path))
      let run = RecordedRun(["--compare", path])
      #expect(run.status == 2)
      #expect(run.errors.contains("is not a Bench JSON report"))

      try Data(#"{"schema": 2, "toolchain": "", "date": "", "results": []}"#.utf8).write(to: URL(fileURLWithPath: path))
      let newer = RecordedRun(["--compare", path])
      #expect(newer.status == 2)
      #expect(newer.errors.contains("has schema 2"))
    }

    @Test(arguments: ["--json", "--csv", "--svg"])
    func anOutputPathInAMissingDirectoryIsABadArgument(option: String) {
      let run = RecordedRun([option, "/nonexistent/directory/out.file"])
      #expect(run.status == 2)
      #expect(run.errors.contains("directory '/nonexistent/directory' of '/nonexistent/directory/out.file'"))
      #expect(run.errors.contains(option))
    }

    @Test func anOutputPathThatIsADirectoryIsABadArgument() throws {
      let directory = try TemporaryDirectory()
      let run = RecordedRun(["--json", directory.url.path])
      #expect(run.status == 2)
      #expect(run.errors.contains("is a directory"))
    }

    @Test func aSmallRunPrintsTablesAndWritesEveryFile() throws {
      let directory = try TemporaryDirectory()
      let (json, csv, svg) = (directory.path("r.json"), directory.path("r.csv"), directory.path("r.svg"))
      let run = RecordedRun([
        "--scenario", "fanout,memory", "--contender", "direct-call,output", "--n", "1,4", "--iterations", "3",
        "--json", json, "--csv", csv, "--svg", svg,
      ])
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.output.contains("fanout: ns per delivery"))
      #expect(!run.errors.contains("N = 4"), "a recorded console is no terminal: no progress")
      let report = try JSONReport.load(from: json)
      if HeapUsage.isAvailable {
        #expect(run.output.contains("memory: bytes per subscriber"))
        #expect(report.results.count == 2 * 2 + 1 * 2)
      } else {
        #expect(run.errors.contains("memory: skipped"))
        #expect(report.results.count == 2 * 2)
      }
      #expect(Set(report.results.map(\.contender)) == ["direct-call", "output"])
      let csvText = try String(contentsOfFile: csv, encoding: .utf8)
      #expect(csvText.split(separator: "\n").count == 1 + report.results.count)
      #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<svg"))

      let compared = RecordedRun([
        "--scenario", "fanout", "--contender", "direct-call", "--n", "4", "--iterations", "3", "--compare", json,
      ])
      #expect(compared.status == 0)
      #expect(compared.output.contains("Compared with \(json)"))
      #expect(report.results.filter { $0.scenario == "fanout" }.allSatisfy { $0.min != nil && $0.max != nil })
    }

    @Test func aRegressionExitsWithStatus1OnlyWhenAskedTo() throws {
      let directory = try TemporaryDirectory()
      let path = directory.path("old.json")
      // A baseline no real run can match: 0.001 ns per delivery, every repetition.
      let baseline = BenchReport(
        toolchain: "test", date: "2026-01-01T00:00:00Z",
        results: [
          ResultRow(
            scenario: "fanout", contender: "direct-call", n: 4, metric: "ns_per_delivery", value: 0.001, unit: "ns",
            min: 0.001, max: 0.001)
        ])
      try Data(JSONReport.render(baseline).utf8).write(to: URL(fileURLWithPath: path))
      let command = ["--scenario", "fanout", "--contender", "direct-call", "--n", "4", "--iterations", "3"]
      let gated = RecordedRun(command + ["--compare", path, "--fail-on-regression"])
      #expect(gated.status == 1)
      #expect(gated.output.contains("REGRESSION"))
      #expect(gated.errors.contains("1 figure(s) regressed"))
      let reported = RecordedRun(command + ["--compare", path])
      #expect(reported.status == 0)
      #expect(reported.output.contains("REGRESSION"))
    }

    @Test func peersRowsAreShownInTheTableAndTheChartButNotWritten() throws {
      let directory = try TemporaryDirectory()
      let (peersPath, json, svg) = (directory.path("peers.json"), directory.path("r.json"), directory.path("r.svg"))
      let peers = BenchReport(
        toolchain: "peers", date: "2026-01-01T00:00:00Z",
        results: [
          ResultRow(
            scenario: "fanout", contender: "some-peer", n: 4, metric: "ns_per_delivery", value: 123, unit: "ns")
        ])
      try Data(JSONReport.render(peers).utf8).write(to: URL(fileURLWithPath: peersPath))
      let run = RecordedRun([
        "--scenario", "fanout", "--contender", "direct-call", "--n", "4", "--iterations", "3", "--peers", peersPath,
        "--json", json, "--svg", svg,
      ])
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.output.contains("some-peer"))
      #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("some-peer"))
      #expect(try JSONReport.load(from: json).results.map(\.contender) == ["direct-call"])

      let missing = RecordedRun(["--peers", directory.path("none.json")])
      #expect(missing.status == 2)
      #expect(missing.errors.contains("given to '--peers'"))
    }
  }
}
