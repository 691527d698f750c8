import BenchHarness
import Foundation
import Testing

@testable import Bench

extension BenchTestSuite {
  /// What a reader of Bench's output sees first: a verdict under each table, captions that say what a figure counts,
  /// the platform named once, a short answer to a bad command line, and a chart whose series all look different.
  @Suite struct ReadabilityTests {
    private static func rows(_ scenario: Scenario, metric: Metric = .nanosecondsPerDelivery) -> [ResultRow] {
      SampleReports.current.results.filter { $0.scenario == scenario.name && $0.metric == metric.name }
    }

    private static func row(_ contender: String, n: Int, value: Double, scenario: String = "main-actor") -> ResultRow {
      ResultRow(scenario: scenario, contender: contender, n: n, metric: "ns_per_delivery", value: value, unit: "ns")
    }

    @Test func eachTableWithARivalEndsWithAVerdictAgainstTheBestRivalAtTheLargestN() {
      #expect(
        TableVerdict(Self.rows(.sourceFanout))?.description
          == "broadcaster is 44.0× faster than per-observer at N = 100")
      #expect(
        TableVerdict(Self.rows(.mainActor))?.description == "output is 2.00× faster than main-queue-async at N = 10")
      #expect(
        TableVerdict(Self.rows(.mainActor, metric: .mainQueueBlocksPerEvent))?.description
          == "output hands the main queue 0.010 blocks per event where main-queue-async hands it 10.0, at N = 10")
      #expect(
        TableVerdict(Self.rows(.upstream, metric: .subscriptions))?.description
          == "broadcaster holds 1 upstream subscription where per-observer holds 100, at N = 100")
      // direct-call is the limit, not a rival; a table with nothing else to compare has no verdict.
      #expect(TableVerdict(Self.rows(.fanout)) == nil)
      #expect(TableVerdict(Self.rows(.memory, metric: .bytesPerSubscriber)) == nil)

      let table = TableReport.render(SampleReports.current)
      #expect(table.contains("| 100 |  880 (1.00×) | 20.0 (0.0227×) |\nbroadcaster is 44.0× faster than per-observer"))
    }

    @Test func theVerdictPicksTheFastestRivalAndSaysSlowerOrAboutAsFastWhenThatIsTheTruth() {
      let rows = [
        Self.row("main-queue-async", n: 100, value: 1000), Self.row("async-stream", n: 100, value: 300),
        Self.row("output", n: 100, value: 600), Self.row("main-queue-async", n: 1000, value: 1000),
      ]
      #expect(TableVerdict(rows)?.description == "output is 2.00× slower than async-stream at N = 100")
      let close = [Self.row("main-queue-async", n: 10, value: 103), Self.row("output", n: 10, value: 100)]
      #expect(TableVerdict(close)?.description == "output is about as fast as main-queue-async (1.03×) at N = 10")
      let peer = [Self.row("opencombine-subject", n: 10, value: 1), Self.row("output", n: 10, value: 100)]
      #expect(TableVerdict(peer) == nil, "a peer measured in another run is no rival")
    }

    @Test func blockCountsAreCaptionedAsCountsNotAsTimes() {
      let heading = TableReport.heading(
        scenario: Scenario.mainActor.name, metric: Metric.mainQueueBlocksPerEvent.name, base: nil)
      #expect(heading.contains("a count: main-queue blocks ÷ events"))
      #expect(!heading.contains("time ÷"))
      for scenario in [Scenario.mainActor, .mainActorPaced] {
        #expect(!scenario.summary(of: .mainQueueBlocksPerEvent).contains("time ÷"))
        #expect(scenario.summary(of: .nanosecondsPerDelivery).contains("time ÷ (events × N)"))
      }
      #expect(Scenario.fanout.summary(of: .mainQueueBlocksPerEvent) == Scenario.fanout.summary)
    }

    @Test func theHeaderNamesThePlatformOnce() {
      var report = SampleReports.current
      report.machine = "Linux x86_64, 2 vCPUs (Test CPU), 8 GiB"
      let header = TableReport.render(report).split(separator: "\n")[0]
      #expect(
        header == "Bench: Swift 6.3, release build, 2026-01-02T03:04:05Z; Linux x86_64, 2 vCPUs (Test CPU), 8 GiB")
      #expect(header.components(separatedBy: "Linux x86_64").count == 2)
      #expect(TableReport.toolchain("Swift 6.3, Linux x86_64, release build", besides: nil).contains("Linux"))
      #expect(
        TableReport.toolchain("Swift 6.3, Linux arm64, release build", besides: "Linux x86_64, 1 CPU")
          == "Swift 6.3, Linux arm64, release build")
    }

    @Test func aBadArgumentPrintsTheErrorAndOneLinePointingToHelp() {
      let run = RecordedRun(["--bogus"])
      #expect(run.status == 2)
      let lines = run.errors.split(separator: "\n")
      #expect(lines.count == 2)
      #expect(lines.first?.hasPrefix("Bench: error: ") == true)
      #expect(lines.last.map(String.init) == Usage.helpPointer)
      #expect(Usage.helpPointer.contains("--help"))
    }

    @Test func everySeriesOfTheChartHasAStyleOfItsOwnAndEachContenderKeepsItsColour() {
      let peers = (1...8).map { "peer-\($0)" }
      let fanout = Scenario.fanout.contenders.map(\.name) + peers
      let series =
        fanout.map { SVGChart.Series(scenario: "fanout", contender: $0, points: [(1, 1)]) }
        + Scenario.sourceFanout.contenders.map {
          SVGChart.Series(scenario: "source-fanout", contender: $0.name, points: [(1, 1)])
        }
        + Scenario.mainActor.contenders.map {
          SVGChart.Series(scenario: "main-actor", contender: $0.name, points: [(1, 1)])
        }
      let styles = SVGChart.styles(for: series)
      #expect(series.count > 20)
      #expect(Set(styles).count == series.count)
      let outputStyles = zip(series, styles).filter { $0.0.contender == "output" }.map(\.1)
      #expect(Set(outputStyles.map(\.color)).count == 1)
      #expect(Set(outputStyles.map(\.dash)).count == outputStyles.count)
    }

    @Test func renderingTheDocsDrawsTheChartFromTheResultsAndCheckFindsAStaleOne() throws {
      let directory = try TemporaryDirectory()
      let root = directory.url
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("Benchmarks"), withIntermediateDirectories: true)
      try Data(JSONReport.render(FigureDocsTests.results).utf8).write(
        to: root.appendingPathComponent(FigureDocs.resultsPath))
      let chart = root.appendingPathComponent(FigureDocs.chartPath)
      try Data("<svg/>".utf8).write(to: chart)

      var errors = ""
      let console = Console(writeOutput: { _ in }, writeError: { errors += $0 })
      #expect(FigureDocs.run(checkOnly: true, console: console, root: root.path) == 1)
      #expect(errors.contains("in: Benchmarks/chart.svg"))
      #expect(FigureDocs.run(checkOnly: false, console: console, root: root.path) == 0)
      #expect(try String(contentsOf: chart, encoding: .utf8) == SVGChart.render(FigureDocsTests.results))
      #expect(FigureDocs.run(checkOnly: true, console: console, root: root.path) == 0)
    }
  }
}
