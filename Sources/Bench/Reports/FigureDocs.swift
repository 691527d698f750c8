import BenchHarness
import Foundation

/// `Bench --render-docs`: the figure tables of the documents, generated from the committed results, so no two
/// documents can disagree and none can drift from the results file.
///
/// Every Markdown file of the package (`README.md`, `Benchmarks/`, the DocC catalogs under `Sources/`) may hold
/// regions between `<!-- figures:SCENARIO … -->` and `<!-- /figures -->` (``FigureRegion``). Each region gets a
/// caption saying what the figures are, what the ratios are against and where and when they were measured, and a
/// table made by ``TableReport``. Absolute figures appear only when the results file names its machine; otherwise
/// the table shows ratios alone. A scenario the results file lacks gets a line saying so.
///
/// The chart, `Benchmarks/chart.svg`, is drawn anew from the same results and the peers' (when it exists under the
/// root), so it too matches them.
///
/// With `--check`, nothing is written and the status is 1 if any region or the chart differs from what it would be:
/// CI runs this, so the committed documents always match the committed results.
enum FigureDocs {
  static let resultsPath = "Benchmarks/results.json"
  static let peersPath = "Benchmarks/peers.json"
  static let chartPath = "Benchmarks/chart.svg"
  /// Where documents are looked for, relative to the package root; hidden folders (build folders) are skipped.
  static let searchRoots = ["README.md", "Benchmarks", "Sources"]
  /// The column captions are wrapped at, as the documents' own prose.
  static let lineWidth = 120

  /// Renders (or, with `checkOnly`, checks) every document under `root`; returns the exit status.
  static func run(checkOnly: Bool, console: Console, root: String = FileManager.default.currentDirectoryPath)
    -> Int32
  {
    let rootURL = URL(fileURLWithPath: root)
    let results: BenchReport
    let peers: BenchReport?
    do {
      results = try JSONReport.load(from: rootURL.appendingPathComponent(resultsPath).path, option: "--render-docs")
      let peersFile = rootURL.appendingPathComponent(peersPath).path
      peers =
        FileManager.default.fileExists(atPath: peersFile)
        ? try JSONReport.load(from: peersFile, option: "--render-docs") : nil
    } catch {
      console.printError("Bench: error: \(error.message) (run --render-docs from the package root)")
      return 1
    }
    var stale: [String] = []
    let chartURL = rootURL.appendingPathComponent(chartPath)
    if let chart = try? String(contentsOf: chartURL, encoding: .utf8) {
      var charted = results
      charted.results += peers?.results ?? []
      let rendered = SVGChart.render(charted)
      if rendered != chart {
        stale.append(chartPath)
        if !checkOnly {
          do {
            try Data(rendered.utf8).write(to: chartURL)
          } catch {
            console.printError("Bench: error: cannot write '\(chartPath)': \(error.localizedDescription)")
            return 1
          }
        }
      }
    }
    for path in documents(under: rootURL) {
      let url = rootURL.appendingPathComponent(path)
      guard let text = try? String(contentsOf: url, encoding: .utf8), text.contains(FigureRegion.opening) else {
        continue
      }
      let rendered: String
      do {
        rendered = try render(text, results: results, peers: peers)
      } catch {
        console.printError("Bench: error: \(path): \(error.message)")
        return 1
      }
      guard rendered != text else { continue }
      stale.append(path)
      guard !checkOnly else { continue }
      do {
        try Data(rendered.utf8).write(to: url)
      } catch {
        console.printError("Bench: error: cannot write '\(path)': \(error.localizedDescription)")
        return 1
      }
    }
    if checkOnly && !stale.isEmpty {
      console.printError(
        "Bench: error: figures out of date with \(resultsPath) in: \(stale.joined(separator: ", ")); "
          + "run swift run -c release Bench --render-docs")
      return 1
    }
    console.printError(
      stale.isEmpty
        ? "Bench: every figure region matches \(resultsPath)" : "Bench: rewrote \(stale.joined(separator: ", "))")
    return 0
  }

  /// The Markdown files under the search roots, as paths relative to `root`, sorted.
  static func documents(under root: URL) -> [String] {
    var paths: [String] = []
    for searchRoot in searchRoots {
      let url = root.appendingPathComponent(searchRoot)
      if searchRoot.hasSuffix(".md") {
        if FileManager.default.fileExists(atPath: url.path) { paths.append(searchRoot) }
        continue
      }
      let files = FileManager.default.enumerator(
        at: url, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles, .skipsPackageDescendants])
      while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "md" else { continue }
        paths.append(searchRoot + "/" + file.path.dropFirst(url.path.count + 1))
      }
    }
    return paths.sorted()
  }

  /// `document` with the content of every figure region generated anew.
  ///
  /// - Throws: ``FigureRegionError`` for a malformed marker, a region without its end, or one inside another.
  static func render(_ document: String, results: BenchReport, peers: BenchReport?) throws(FigureRegionError)
    -> String
  {
    var output: [Substring] = []
    var open: (region: FigureRegion, line: Int)?
    for (number, line) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = String(line).trimmingWhitespace
      if trimmed.hasPrefix(FigureRegion.opening) {
        if let open {
          throw FigureRegionError(message: "line \(number + 1): a figures region inside the one of line \(open.line)")
        }
        open = (try FigureRegion.parse(trimmed), number + 1)
        output.append(line)
      } else if trimmed == FigureRegion.closing {
        guard let region = open?.region else {
          throw FigureRegionError(message: "line \(number + 1): \(FigureRegion.closing) closes no region")
        }
        output.append("")
        output.append(
          contentsOf: figures(region, results: results, peers: peers).split(
            separator: "\n", omittingEmptySubsequences: false))
        output.append("")
        output.append(line)
        open = nil
      } else if open == nil {
        output.append(line)
      }
    }
    if let open {
      throw FigureRegionError(message: "line \(open.line): the figures region has no \(FigureRegion.closing)")
    }
    return output.joined(separator: "\n")
  }

  /// The generated content of `region`: a caption and a table, or a line saying the figures are not measured.
  static func figures(_ region: FigureRegion, results: BenchReport, peers: BenchReport?) -> String {
    let known = Scenario(rawValue: region.scenario)
    let metric = region.metric ?? known?.metric.name ?? Metric.nanosecondsPerDelivery.name
    let select = { (rows: [ResultRow]) in
      rows.filter { row in
        row.scenario == region.scenario && row.metric == metric
          && region.responderCounts.map { $0.contains(row.n) } != false
          && region.contenders.map { $0.contains(row.contender) } != false
      }
    }
    let measured = select(results.results)
    guard !measured.isEmpty else {
      return "_Not in the committed results yet: `swift run -c release Bench --scenario \(region.scenario)` "
        + "measures it._"
    }
    let peerRows = region.includesPeers ? select(peers?.results ?? []) : []
    var rows = measured + peerRows
    let base = TableReport.base(of: measured)
    var caption = TableReport.words(of: metric)
    let summary = known.map { known in Metric(rawValue: metric).map { known.summary(of: $0) } ?? known.summary }
    caption += summary.map { ": \($0)." } ?? "."
    let isAbsolute = base == nil || results.machine != nil
    if let base {
      caption +=
        isAbsolute
        ? " In brackets: each figure ÷ `\(base)`'s at the same N." : " Each figure ÷ `\(base)`'s at the same N."
    }
    if let machine = results.machine {
      caption +=
        " Measured on \(machine); \(TableReport.toolchain(results.toolchain, besides: machine)); \(results.date)."
    } else {
      caption +=
        " Ratios only: the results file does not name the machine its times were measured on"
        + " (\(results.toolchain); \(results.date))."
    }
    if let peers, !peerRows.isEmpty {
      let names = orderedUnique(peerRows.map(\.contender)).map { "`\($0)`" }.joined(separator: ", ")
      caption += " \(names): the peer comparison (`Benchmarks/Peers`), measured in a run of its own on \(peers.date)."
    }
    caption += " Source: `\(resultsPath)`" + (peerRows.isEmpty ? "" : ", `\(peersPath)`") + "."
    if !isAbsolute {
      rows = ratiosOnly(rows, base: base)
    }
    return wrap(caption) + "\n\n" + TableReport.table(rows, base: isAbsolute ? base : nil, codeNames: true)
  }

  /// `rows` with each value replaced by its ratio to `base`'s value at the same N, for a table without times.
  private static func ratiosOnly(_ rows: [ResultRow], base: String?) -> [ResultRow] {
    rows.compactMap { row in
      guard let base, let baseRow = rows.first(where: { $0.contender == base && $0.n == row.n }), baseRow.value > 0
      else { return nil }
      var ratio = row
      ratio.value = row.value / baseRow.value
      ratio.unit = TableReport.ratioUnit
      return ratio
    }
  }

  /// `text` broken into lines of at most ``lineWidth`` characters at spaces.
  static func wrap(_ text: String) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > lineWidth {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
