import Testing

@testable import Bench

extension BenchTestSuite {
  @Suite struct ComparisonTests {
    private func baseline(_ changes: [String: Double]) -> BenchReport {
      var report = SampleReports.current
      report.date = "2025-12-01T00:00:00Z"
      report.results = report.results.compactMap { row in
        let key = "\(row.scenario) \(row.contender) \(row.n)"
        guard let value = changes[key] else { return row }
        guard value >= 0 else { return nil }
        var old = row
        old.value = value
        return old
      }
      return report
    }

    @Test func aFigureMoreThanTheThresholdWorseIsARegression() {
      // Now 3.6 ns; before 3.0 ns: +20%.
      let comparison = Comparison(current: SampleReports.current, baseline: baseline(["fanout output 100": 3.0]))
      #expect(comparison.regressions.map(\.row.contender) == ["output"])
      let entry = comparison.regressions[0]
      #expect(entry.oldValue == 3.0)
      #expect(abs((entry.change ?? 0) - 0.2) < 1e-9)
    }

    @Test func aFigureMoreThanTheThresholdBetterIsAnImprovement() {
      // Now 20 ns; before 40 ns: -50%.
      let comparison = Comparison(
        current: SampleReports.current, baseline: baseline(["source-fanout broadcaster 100": 40]))
      #expect(comparison.regressions.isEmpty)
      #expect(comparison.improvements.map(\.row.contender) == ["broadcaster"])
    }

    @Test func changesWithinTheThresholdAreUnmarked() {
      // Now 6 ns; before 5.6 ns: +7%. Now 1.2 ns; before 1.3 ns: -8%.
      let comparison = Comparison(
        current: SampleReports.current, baseline: baseline(["fanout output 1": 5.6, "fanout direct-call 100": 1.3]))
      #expect(comparison.regressions.isEmpty && comparison.improvements.isEmpty)
      #expect(comparison.entries.allSatisfy { $0.verdict == .unchanged })
    }

    @Test func aFigureTheEarlierRunLacksIsNew() {
      let comparison = Comparison(current: SampleReports.current, baseline: baseline(["memory output 100": -1]))
      #expect(comparison.entries.last?.verdict == .new)
      #expect(comparison.entries.last?.oldValue == nil)
      #expect(comparison.entries.last?.change == nil)
    }

    @Test func theReportMarksRegressionsAndCountsThem() {
      let old = baseline(["fanout output 100": 3.0, "upstream broadcaster 100": 2, "memory output 100": -1])
      let comparison = Comparison(current: SampleReports.current, baseline: old)
      let text = ComparisonReport.render(comparison, baselinePath: "old.json", baseline: old)
      #expect(text.hasPrefix("Compared with old.json (Swift 6.3, Linux x86_64, release build, 2025-12-01T00:00:00Z): "))
      #expect(text.contains("1 regression, 1 improvement"))
      let outputLine = text.split(separator: "\n").first {
        $0.contains("| fanout") && $0.contains("output") && $0.contains("| 100 |")
      }
      #expect(outputLine?.contains("3.00 ns") == true)
      #expect(outputLine?.contains("3.60 ns") == true)
      #expect(outputLine?.contains("+20.0%") == true)
      #expect(outputLine?.contains("REGRESSION") == true)
      let upstreamLine = text.split(separator: "\n").first { $0.contains("| upstream") && $0.contains("broadcaster") }
      #expect(upstreamLine?.contains("-50.0%") == true)
      #expect(upstreamLine?.contains("improved") == true)
      #expect(text.split(separator: "\n").filter { $0.contains("REGRESSION") }.count == 1)
      #expect(text.contains("new"))
    }
  }
}
