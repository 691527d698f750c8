import BenchHarness
import Foundation
import Testing

@testable import Bench

extension BenchTestSuite {
  /// The overload scenarios: a sender that outruns N slow subscribers on queues of their own or on the main actor,
  /// which the test runner's main queue serves, under each buffering policy.
  @Suite struct OverloadScenarioTests {
    static let scenarios = [Scenario.overload, .overloadMain]
    static let policies: [ContenderName] = [.unbounded, .newest100, .oldest100, .latest]
    /// Short enough that an unbounded subscriber stays below the 100,000 waiting events a debug build warns about.
    static let sending = Duration.milliseconds(20)

    @Test func theScenariosAndTheirContendersAreNamedAndSelectable() throws {
      let arguments = try Arguments.parse(["--scenario", "overload", "--contender", "latest", "--n", "10"])
      #expect(arguments.scenarios == [.overload])
      #expect(arguments.contenders(of: .overload) == [.latest])
      #expect(arguments.responderCounts(of: .overload) == [10])

      let both = try Arguments.parse(["--scenario=overload-main,overload", "--contender", "oldest-100,newest-100"])
      #expect(both.scenarios == [.overload, .overloadMain])
      #expect(both.contenders(of: .overloadMain) == [.newest100, .oldest100])

      let policies = try Arguments.parse(["--contender", "unbounded,newest-100,oldest-100,latest"])
      #expect(policies.scenarios == [.overload, .overloadMain])
      #expect(try Arguments.parse(["--contender", "output-bounded"]).scenarios == [.mainActor])
      #expect(Scenario.mainActor.contenders.last == .outputBounded)
      #expect(!Scenario.mainActorPaced.contenders.contains(.outputBounded))

      for scenario in Self.scenarios {
        #expect(scenario.contenders == Self.policies)
        #expect(scenario.contenders.map(\.name) == ["unbounded", "newest-100", "oldest-100", "latest"])
        #expect(scenario.metrics.map(\.name) == ["peak_heap_bytes", "peak_waiting", "sent", "delivered", "dropped"])
        #expect(scenario.metrics.map(\.unit) == ["bytes", "count", "count", "count", "count"])
        #expect(scenario.reference == nil)
        #expect(try Arguments.parse([]).responderCounts(of: scenario) == [1, 10, 100])
        #expect(try Arguments.parse(["--quick"]).responderCounts(of: scenario) == [1, 10])
      }
      #expect(Scenario(rawValue: "overload-main") == .overloadMain)
      #expect(ContenderName.newest100.overloadPolicy == .bufferingNewest(100))
      #expect(ContenderName.oldest100.overloadPolicy == .bufferingOldest(100))
      #expect(ContenderName.latest.overloadPolicy == .latest)
      #expect(ContenderName.unbounded.overloadPolicy == .unbounded)
      #expect(ContenderName.output.overloadPolicy == nil)
    }

    @Test(arguments: [
      (["--scenario", "overlaod"], "unknown name 'overlaod' for '--scenario'"),
      (["--contender", "newest100"], "unknown name 'newest100' for '--contender'"),
      (["--scenario", "overload", "--contender", "output"], "contender 'output' is not in the selected scenarios"),
      (["--scenario", "overload,fanout", "--contender", "output"], "scenario 'overload' has none of the selected"),
      (
        ["--scenario", "fanout", "--contender", "latest"],
        "contender 'latest' is not in the selected scenarios; it takes part in: overload, overload-main"
      ),
      (["--scenario", "overload", "--contender", "output-bounded"], "it takes part in: main-actor"),
      (["--scenario", "overload", "--n", "0"], "'0' is not a whole number"),
    ])
    func badArgumentsAboutTheOverloadScenariosAreRefused(commandLine: [String], message: String) {
      #expect {
        try Arguments.parse(commandLine)
      } throws: { error in
        (error as? ArgumentError)?.message.contains(message) == true
      }
      let run = RecordedRun(commandLine)
      #expect(run.status == 2)
      #expect(run.errors.hasSuffix(Usage.helpPointer + "\n"))
      #expect(run.output.isEmpty)
    }

    @Test(arguments: scenarios)
    func everyPolicyAccountsForEveryEventAndTheBoundedOnesKeepToTheirBound(scenario: Scenario) async throws {
      let responderCount = 3
      let figures = try #require(
        try await onAThreadOfItsOwn {
          try OverloadScenario.measure(
            scenario, contenders: Self.policies, responderCount: responderCount, sending: Self.sending)
        })
      #expect(figures.count == Self.policies.count)
      for (name, figure) in zip(Self.policies, figures) {
        #expect(figure.sent > 0, "\(name)")
        #expect(figure.delivered > 0, "\(name)")
        #expect(figure.sent * responderCount == figure.delivered + figure.dropped, "\(name): \(figure)")
        #expect((figure.peakHeapBytes != nil) == HeapUsage.isAvailable, "\(name)")
      }
      let byName = Dictionary(uniqueKeysWithValues: zip(Self.policies, figures))
      #expect(byName[.unbounded]?.dropped == 0, "an unbounded subscriber drops nothing")
      #expect(byName[.unbounded]?.delivered == (byName[.unbounded]?.sent ?? 0) * responderCount)
      // The bound, and one more: the event in the handler's hands.
      for name in [ContenderName.newest100, .oldest100] {
        #expect((byName[name]?.peakWaiting ?? .max) <= OverloadScenario.bound + 1, "\(name): \(byName[name]!)")
      }
      #expect((byName[.latest]?.peakWaiting ?? .max) <= 2, "\(byName[.latest]!)")
    }

    @Test func theRunnerWritesEveryFigureOfTheOverloadScenariosAsRows() async throws {
      let arguments = try Arguments.parse([
        "--scenario", "overload-main", "--contender", "latest", "--n", "2", "--quick",
      ])
      let rows = try #require(
        try await onAThreadOfItsOwn {
          try Runner(arguments: arguments, progress: { _ in }, notice: { _ in }).run()
        })
      let metrics = Scenario.overloadMain.metrics.filter { $0 != .peakHeapBytes || HeapUsage.isAvailable }
      #expect(rows.map(\.metric) == metrics.map(\.name))
      #expect(rows.map(\.unit) == metrics.map(\.unit))
      #expect(rows.allSatisfy { $0.scenario == "overload-main" && $0.contender == "latest" && $0.n == 2 })
      #expect(rows.allSatisfy { $0.min == $0.value && $0.max == $0.value }, "one run: no spread")
      let value = { (metric: Metric) in rows.first { $0.metric == metric.name }?.value ?? -1 }
      #expect(value(.sent) * 2 == value(.delivered) + value(.dropped))
      #expect(value(.peakWaiting) <= 2)
    }

    /// Bounded contenders only: an unbounded subscriber of a `--quick` run has more than 100,000 events waiting, which
    /// a debug build warns about, and a warning in the tests' output must mean something.
    @Test func aRunPrintsItsTablesAndWritesItsRowsToJSONAndCSV() async throws {
      let directory = try TemporaryDirectory()
      let (json, csv) = (directory.path("r.json"), directory.path("r.csv"))
      let run = try #require(
        try await onAThreadOfItsOwn {
          RecordedRun([
            "--scenario", "overload", "--contender", "newest-100,latest", "--n", "1", "--quick", "--json", json,
            "--csv", csv,
          ])
        })
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.output.contains("overload: events sent (one thread sends for"))
      #expect(!run.output.contains("events sent, lower is better"))
      #expect(run.output.contains("overload: peak events waiting for one subscriber"))
      #expect(!run.output.contains("at N = 1, unbounded"), "no verdict without an unbounded contender")
      let report = try JSONReport.load(from: json)
      let rowsPerContender = HeapUsage.isAvailable ? 5 : 4
      #expect(report.results.count == 2 * rowsPerContender)
      #expect(Set(report.results.map(\.contender)) == ["newest-100", "latest"])
      let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
      #expect(lines.count == 1 + report.results.count)
      #expect(lines.contains { $0.hasPrefix("overload,latest,1,peak_waiting,") && $0.hasSuffix(",count") })
      #expect(lines.contains { $0.hasPrefix("overload,newest-100,1,dropped,") && $0.hasSuffix(",count") })
    }

    static func row(_ contender: String, _ metric: Metric, _ value: Double, n: Int = 10) -> ResultRow {
      ResultRow(
        scenario: "overload", contender: contender, n: n, metric: metric.name, value: value, unit: metric.unit,
        min: value, max: value)
    }

    @Test func theVerdictSetsTheUnboundedPeakAgainstTheBoundedPolicyThatTookTheMost() {
      let rows = [
        Self.row("unbounded", .peakHeapBytes, 145_200_000), Self.row("newest-100", .peakHeapBytes, 312_000),
        Self.row("latest", .peakHeapBytes, 8_000), Self.row("unbounded", .peakWaiting, 1_234_567),
        Self.row("newest-100", .peakWaiting, 101), Self.row("latest", .peakWaiting, 2),
        Self.row("unbounded", .peakWaiting, 40, n: 1), Self.row("latest", .peakWaiting, 2, n: 1),
      ]
      #expect(
        OverloadVerdict(rows)?.description
          == "at N = 10, unbounded: 1.23 M events waited for one subscriber at the peak, 145 MB of heap; "
          + "newest-100: at most 101, 312 kB: the policy bounds memory, not the run's length")
      let keptUp = [Self.row("unbounded", .peakWaiting, 1), Self.row("oldest-100", .peakWaiting, 1)]
      #expect(
        OverloadVerdict(keptUp)?.description
          == "at N = 10, unbounded: 1 event waited for one subscriber at the peak; oldest-100: at most 1: the "
          + "subscribers kept up, so no policy had anything to bound")
      #expect(OverloadVerdict([Self.row("latest", .peakWaiting, 2)]) == nil, "nothing unbounded to set it against")
      #expect(TableVerdict(rows.filter { $0.metric == Metric.peakWaiting.name }) == nil)

      let table = TableReport.render(BenchReport(toolchain: "test", date: "2026-01-01T00:00:00Z", results: rows))
      #expect(table.contains("overload: peak heap growth (one thread sends for 1 s, 250 ms with --quick, to N"))
      #expect(table.contains("|  10 |    145 MB |     312 kB | 8.00 kB |"))
      #expect(table.contains("|  10 |   1234567 |        101 |      2 |\n\n"), "the verdict is under the first table")
      #expect(table.contains("8.00 kB |\nat N = 10, unbounded: 1.23 M events waited"))
      #expect(!table.contains("In brackets"), "counts carry no ratio")
    }

    @Test func compareDoesNotJudgeTheFiguresOfAnOverloadRun() {
      let old = BenchReport(
        toolchain: "test", date: "2026-01-01T00:00:00Z",
        results: [Self.row("unbounded", .sent, 1_000), Self.row("unbounded", .peakHeapBytes, 1_000)])
      let new = BenchReport(
        toolchain: "test", date: "2026-01-02T00:00:00Z",
        results: [Self.row("unbounded", .sent, 5_000), Self.row("unbounded", .peakHeapBytes, 9_000)])
      let comparison = Comparison(current: new, baseline: old)
      #expect(comparison.entries.map(\.verdict) == [.notJudged, .notJudged])
      #expect(comparison.regressions.isEmpty)
      #expect(ComparisonReport.render(comparison, baselinePath: "old.json", baseline: old).contains("not judged"))
    }

    @Test func sizesAndCountsReadAtAGlance() {
      #expect(FigureFormat.bytes(980) == "980 B")
      #expect(FigureFormat.bytes(31_240) == "31.2 kB")
      #expect(FigureFormat.bytes(145_200_000) == "145 MB")
      #expect(FigureFormat.bytes(1_234_000_000) == "1.23 GB")
      #expect(FigureFormat.count(101) == "101")
      #expect(FigureFormat.count(6_061) == "6.06 k")
      #expect(FigureFormat.count(1_234_567) == "1.23 M")
      #expect(Metric.peakHeapBytes.formatted(312_000) == "312 kB")
      #expect(Metric.sent.formatted(1_234_567) == "1234567")
    }
  }
}
