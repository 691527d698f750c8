import BenchHarness
import Foundation
import Testing

@testable import Bench

extension BenchTestSuite {
  /// `--render-docs`: the documents' figure tables, generated from a results file.
  @Suite struct FigureDocsTests {
    static let results = BenchReport(
      toolchain: "Swift 6.3, Linux x86_64, release build", date: "2026-01-02T03:04:05Z",
      machine: "Linux x86_64, 2 CPUs (Test CPU), 8 GiB",
      results: SampleReports.current.results)
    static let peers = BenchReport(
      toolchain: "peers", date: "2026-01-01T00:00:00Z",
      results: [
        ResultRow(
          scenario: "source-fanout", contender: "some-peer", n: 100, metric: "ns_per_delivery", value: 44, unit: "ns")
      ])

    static let document = """
      # Title

      Prose before.

      <!-- figures:source-fanout peers -->
      stale content
      <!-- /figures -->

      Between.

        <!-- figures:main-actor metric=main_queue_blocks_per_event -->
      <!-- /figures -->

      <!-- figures:subscribe-cancel -->
      <!-- /figures -->
      Prose after.

      """

    @Test func markersNameAScenarioAndOptions() throws {
      #expect(try FigureRegion.parse("<!-- figures:fanout -->") == FigureRegion(scenario: "fanout"))
      let region = try FigureRegion.parse(
        "  <!-- figures:source-fanout n=1,100 contenders=per-observer,broadcaster peers metric=ns_per_delivery -->")
      #expect(region.scenario == "source-fanout")
      #expect(region.responderCounts == [1, 100])
      #expect(region.contenders == ["per-observer", "broadcaster"])
      #expect(region.includesPeers)
      #expect(region.metric == "ns_per_delivery")
      for bad in [
        "<!-- figures: -->", "<!-- figures:fanout n=one -->", "<!-- figures:fanout colour=blue -->",
        "<!-- figures:n=1 -->",
      ] {
        #expect(throws: FigureRegionError.self, "\(bad)") { try FigureRegion.parse(bad) }
      }
    }

    @Test func regionsAreRewrittenAndEverythingElseIsLeftAlone() throws {
      let rendered = try FigureDocs.render(Self.document, results: Self.results, peers: Self.peers)
      #expect(!rendered.contains("stale content"))
      for kept in ["# Title\n\nProse before.\n\n", "\n\nBetween.\n\n", "<!-- /figures -->\nProse after.\n"] {
        #expect(rendered.contains(kept))
      }
      #expect(
        rendered.contains("  <!-- figures:main-actor metric=main_queue_blocks_per_event -->\n\nmain-queue blocks"))
      #expect(rendered.contains("`Benchmarks/peers.json`.\n\n|   N |"), "a blank line between caption and table")
      // Rendering what was rendered changes nothing.
      #expect(try FigureDocs.render(rendered, results: Self.results, peers: Self.peers) == rendered)
    }

    @Test func aTableNamesItsMachineItsBaseAndItsSource() throws {
      let figures = FigureDocs.figures(
        try FigureRegion.parse("<!-- figures:source-fanout peers -->"), results: Self.results, peers: Self.peers)
      let caption = figures.components(separatedBy: "\n\n")[0].replacingOccurrences(of: "\n", with: " ")
      #expect(caption.contains("In brackets: each figure ÷ `per-observer`'s at the same N."))
      #expect(caption.contains("Measured on Linux x86_64, 2 CPUs (Test CPU), 8 GiB;"))
      #expect(caption.contains("`some-peer`: the peer comparison (`Benchmarks/Peers`)"))
      #expect(caption.contains("Source: `Benchmarks/results.json`, `Benchmarks/peers.json`."))
      #expect(figures.contains("|   N | `per-observer` |  `broadcaster` |    `some-peer` |"))
      #expect(figures.contains("| 100 |    880 (1.00×) | 20.0 (0.0227×) | 44.0 (0.0500×) |"))
      #expect(figures.split(separator: "\n").allSatisfy { !$0.hasPrefix("|") || $0.count <= 200 })
      #expect(figures.split(separator: "\n").allSatisfy { $0.hasPrefix("|") || $0.count <= FigureDocs.lineWidth })
    }

    @Test func withoutAMachineATableShowsRatiosOnly() throws {
      var anonymous = Self.results
      anonymous.machine = nil
      let figures = FigureDocs.figures(
        try FigureRegion.parse("<!-- figures:source-fanout n=100 -->"), results: anonymous, peers: nil)
      let caption = figures.components(separatedBy: "\n\n")[0].replacingOccurrences(of: "\n", with: " ")
      #expect(caption.contains("Ratios only: the results file does not name the machine"))
      #expect(caption.contains("Each figure ÷ `per-observer`'s at the same N."))
      #expect(figures.contains("| 100 |          1.00× |       0.0227× |"))
      #expect(!figures.contains("880") && !figures.contains("In brackets"))
    }

    @Test func aScenarioNotInTheResultsSaysSo() throws {
      let figures = FigureDocs.figures(
        try FigureRegion.parse("<!-- figures:main-actor-paced -->"), results: Self.results, peers: nil)
      #expect(figures.hasPrefix("_Not in the committed results yet"))
      #expect(figures.contains("--scenario main-actor-paced"))
    }

    @Test func malformedRegionsAreRefusedWithTheirLine() {
      let cases = [
        ("<!-- figures:fanout -->\n<!-- figures:memory -->\n<!-- /figures -->", "line 2"),
        ("text\n<!-- figures:fanout -->\nno end", "line 2: the figures region has no"),
        ("<!-- /figures -->", "line 1: <!-- /figures --> closes no region"),
      ]
      for (document, message) in cases {
        #expect {
          try FigureDocs.render(document, results: Self.results, peers: nil)
        } throws: { error in
          (error as? FigureRegionError)?.message.contains(message) == true
        }
      }
    }

    @Test func checkFailsOnAStaleDocumentAndRenderingFixesIt() throws {
      let directory = try TemporaryDirectory()
      let root = directory.url
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("Benchmarks"), withIntermediateDirectories: true)
      try Data(JSONReport.render(Self.results).utf8).write(to: root.appendingPathComponent(FigureDocs.resultsPath))
      let readme = root.appendingPathComponent("README.md")
      try Data(Self.document.utf8).write(to: readme)

      var errors = ""
      let console = Console(writeOutput: { _ in }, writeError: { errors += $0 })
      #expect(FigureDocs.run(checkOnly: true, console: console, root: root.path) == 1)
      #expect(errors.contains("figures out of date with Benchmarks/results.json in: README.md"))
      #expect(try String(contentsOf: readme, encoding: .utf8) == Self.document, "--check writes nothing")

      #expect(FigureDocs.run(checkOnly: false, console: console, root: root.path) == 0)
      #expect(try String(contentsOf: readme, encoding: .utf8) != Self.document)
      errors = ""
      #expect(FigureDocs.run(checkOnly: true, console: console, root: root.path) == 0)
      #expect(errors.contains("every figure region matches"))
    }

    @Test func withoutAResultsFileNothingIsRendered() throws {
      let directory = try TemporaryDirectory()
      var errors = ""
      let console = Console(writeOutput: { _ in }, writeError: { errors += $0 })
      #expect(FigureDocs.run(checkOnly: true, console: console, root: directory.url.path) == 1)
      #expect(errors.contains("run --render-docs from the package root"))
    }

    @Test func theCommittedDocumentsMatchTheCommittedResults() throws {
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
      var errors = ""
      let console = Console(writeOutput: { _ in }, writeError: { errors += $0 })
      #expect(FigureDocs.run(checkOnly: true, console: console, root: root.path) == 0, "\(errors)")
      #expect(FigureDocs.documents(under: root).contains("README.md"))
    }
  }
}
