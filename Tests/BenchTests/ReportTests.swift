import BenchHarness
import Foundation
import Testing

@testable import Bench

#if canImport(FoundationXML)
  import FoundationXML
#endif

extension BenchTestSuite {
  @Suite struct ReportTests {
    @Test func jsonIsOneObjectWithTheDocumentedKeysInOrder() throws {
      let text = JSONReport.render(SampleReports.current)
      let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      #expect(Set(object.keys) == ["schema", "toolchain", "date", "results"])
      #expect(object["schema"] as? Int == 1)
      #expect(object["toolchain"] as? String == "Swift 6.3, Linux x86_64, release build")
      #expect(object["date"] as? String == "2026-01-02T03:04:05Z")
      let rows = try #require(object["results"] as? [[String: Any]])
      #expect(rows.count == SampleReports.current.results.count)
      for row in rows {
        #expect(Set(row.keys) == ["scenario", "contender", "n", "metric", "value", "unit"])
        #expect(row["scenario"] is String && row["contender"] is String && row["metric"] is String)
        #expect(row["n"] is Int && row["value"] is Double && row["unit"] is String)
      }
      let keyOrder = ["\"schema\"", "\"toolchain\"", "\"date\"", "\"results\""].map { text.range(of: $0)!.lowerBound }
      #expect(keyOrder == keyOrder.sorted())
      #expect(
        text.contains(
          #"{"scenario": "fanout", "contender": "direct-call", "n": 1, "metric": "ns_per_delivery", "value": 1.5, "unit": "ns"}"#
        ))
    }

    @Test func jsonReadsBackAsTheSameReport() throws {
      let directory = try TemporaryDirectory()
      let path = directory.path("report.json")
      try Data(JSONReport.render(SampleReports.current).utf8).write(to: URL(fileURLWithPath: path))
      #expect(try JSONReport.load(from: path) == SampleReports.current)
    }

    @Test func jsonStringsAndNumbersAreEscapedAndWrittenAsJSON() {
      #expect(JSONReport.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
      #expect(JSONReport.number(3) == "3")
      #expect(JSONReport.number(0.61239) == "0.6124")
      #expect(JSONReport.number(1834.5) == "1834.5")
      #expect(JSONReport.number(-0.00001) == "0")
      #expect(JSONReport.number(.nan) == "null")
    }

    @Test func csvHasAHeaderAndOneLinePerFigure() {
      let lines = CSVReport.render(SampleReports.current).split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.first == "scenario,contender,n,metric,value,unit")
      #expect(lines.count == 1 + SampleReports.current.results.count + 1)
      #expect(lines.last == "")
      #expect(lines[1] == "fanout,direct-call,1,ns_per_delivery,1.5,ns")
      #expect(lines.dropFirst().dropLast().allSatisfy { $0.split(separator: ",").count == 6 })
    }

    @Test func tableGivesEveryFigureItsRatioToOneBaseNamedAboveIt() {
      let table = TableReport.render(SampleReports.current)
      #expect(table.contains("fanout: ns per delivery, lower is better"))
      // fanout's reference (weak-box-loop) is not in the sample, so its first contender is the base.
      #expect(table.contains("In brackets: each figure ÷ direct-call's at the same N."))
      #expect(table.contains("|   N |  direct-call |       output |"))
      #expect(table.contains("1.50 (1.00×)"))
      #expect(table.contains("6.00 (4.00×)"))
      #expect(table.contains("3.60 (3.00×)"))
      // source-fanout: per-observer is the best at N = 1 and broadcaster at N = 100, and the base stays per-observer.
      #expect(table.contains("In brackets: each figure ÷ per-observer's at the same N."))
      #expect(table.contains("|   1 |  900 (1.00×) |    950 (1.06×) |"))
      #expect(table.contains("| 100 |  880 (1.00×) | 20.0 (0.0227×) |"))
      #expect(table.contains("main-actor: ns per delivery"))
      #expect(table.contains("In brackets: each figure ÷ main-queue-async's at the same N."))
      #expect(table.contains("|  10 |      900 (1.00×) | 450 (0.500×) |"))
      // Counts carry no ratio.
      #expect(table.contains("main-actor: main-queue blocks per event, lower is better"))
      #expect(table.contains("|  10 |             10.0 |  0.010 |"))
      #expect(table.contains("upstream: upstream subscriptions"))
      #expect(table.contains("| 100 |          100 |           1 |"))
      #expect(table.contains("96.5 (1.00×)"))
      #expect(table.contains("  main-queue-async  hand-written: DispatchQueue.main.async per responder per event"))
      // Every row of a table is as wide as its header, so the columns line up.
      let tables = table.components(separatedBy: "\n\n").map { $0.split(separator: "\n").filter { $0.hasPrefix("|") } }
      #expect(tables.filter { !$0.isEmpty }.count == 6)
      for rows in tables where !rows.isEmpty {
        #expect(Set(rows.map(\.count)).count == 1, "\(rows)")
      }
    }

    @Test func svgIsWellFormedAndLabelsAxesAndEveryContender() throws {
      let svg = SVGChart.render(SampleReports.current)
      let elements = try xmlElementNames(svg)
      #expect(elements.first == "svg")
      #expect(elements.contains("polyline") && elements.contains("circle") && elements.contains("text"))
      for label in [
        "output (fanout)", "direct-call (fanout)", "per-observer (source-fanout)", "broadcaster (source-fanout)",
        "ns per delivery (log scale)", "N, responders reached by each event (log scale)",
        "Swift 6.3, Linux x86_64, release build",
      ] {
        #expect(svg.contains(label), "missing label \(label)")
      }
      // Only ns_per_delivery figures are charted: six lines in all, none for blocks, upstream or memory.
      #expect(svg.components(separatedBy: "<polyline").count - 1 == 6 * 2)
      #expect(svg.contains("output (main-actor)"))
      #expect(!svg.contains("(upstream)") && !svg.contains("(memory)"))
    }

    @Test func svgWithoutDeliveryFiguresSaysSo() throws {
      let report = BenchReport(toolchain: "t", date: "d", results: [SampleReports.current.results.last!])
      let svg = SVGChart.render(report)
      #expect(try xmlElementNames(svg).first == "svg")
      #expect(svg.contains("No fanout, source-fanout or main-actor figures"))
    }

    @Test func svgLeavesTheActorScenarioToTheTables() throws {
      let actor = ResultRow(
        scenario: "actor", contender: "output", n: 10, metric: "ns_per_delivery", value: 500, unit: "ns")
      var report = SampleReports.current
      report.results.append(actor)
      let svg = SVGChart.render(report)
      #expect(!svg.contains("(actor)"))
      #expect(svg == SVGChart.render(SampleReports.current))
      #expect(TableReport.render(report).contains("actor: ns per delivery"))
    }

    @Test func decadeLabelsAreShort() {
      #expect((-2...6).map(SVGChart.decadeLabel) == ["0.01", "0.1", "1", "10", "100", "1k", "10k", "100k", "1M"])
    }
  }
}

/// The names of the elements of an XML document, in document order; throws if it is not well-formed.
private func xmlElementNames(_ document: String) throws -> [String] {
  final class Collector: NSObject, XMLParserDelegate {
    var names: [String] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      names.append(name)
    }
  }
  struct NotWellFormed: Error {
    var reason: String
  }
  let parser = XMLParser(data: Data(document.utf8))
  let collector = Collector()
  parser.delegate = collector
  guard parser.parse() else { throw NotWellFormed(reason: parser.parserError.map(String.init(describing:)) ?? "") }
  return collector.names
}
