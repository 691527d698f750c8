import BenchHarness
import Foundation

/// A log-log chart of ns per delivery against N for every `fanout`, `source-fanout` and `main-actor` contender, as
/// SVG.
///
/// Hand-written SVG 1.1 with no script or external resource: a title saying what is plotted and what made it,
/// both axes labelled in decades, one line per contender (`fanout` solid, `source-fanout` dashed, `main-actor`
/// dotted, this library's contenders thicker) and a legend naming each with its figure at the largest N. Every point has a
/// tooltip with its exact figure. No two series share a style: each contender has a colour of its own, the same in
/// every scenario, and once the palette is used up (the peers a chart may add), a point shape of its own as well.
enum SVGChart {
  /// The scenarios the chart plots: those measured in ns per delivery.
  static let scenarios: [Scenario] = [.fanout, .sourceFanout, .mainActor]

  struct Series {
    var scenario: String
    var contender: String
    /// (N, ns per delivery), N ascending, values above zero.
    var points: [(n: Int, value: Double)]

    var label: String { "\(contender) (\(scenario))" }
  }

  static func render(_ report: BenchReport) -> String {
    let series = makeSeries(report.results)
    var svg = SVGCanvas(width: Layout.width, height: Layout.height)
    svg.text(
      "Cost of delivering one event to N responders: ns per delivery against N, log-log, lower is better",
      x: 20, y: 30, size: 17, weight: "bold")
    svg.text(
      "\(report.toolchain), \(report.date). fanout solid; source-fanout (one NotificationCenter post) dashed; "
        + "main-actor (bursts from a background thread) dotted.",
      x: 20, y: 52, size: 12, color: "#444444")
    guard let scale = Scale(series) else {
      svg.rectangle(x: Layout.left, y: Layout.top, width: Layout.plotWidth, height: Layout.plotHeight)
      svg.text(
        "No fanout, source-fanout or main-actor figures in this run.", x: Layout.left + Layout.plotWidth / 2,
        y: Layout.top + Layout.plotHeight / 2, size: 14, anchor: "middle")
      return svg.document
    }
    drawAxes(scale, on: &svg)
    let styles = styles(for: series)
    for (line, style) in zip(series, styles) {
      draw(line, style: style, scale: scale, on: &svg)
    }
    drawLegend(series, styles: styles, on: &svg)
    return svg.document
  }

  /// One series per contender of the charted scenarios, in report order.
  static func makeSeries(_ rows: [ResultRow]) -> [Series] {
    let charted = rows.filter { row in
      scenarios.contains { $0.name == row.scenario } && row.metric == Metric.nanosecondsPerDelivery.name
        && row.value > 0 && row.value.isFinite
    }
    let names = orderedUnique(charted.map { "\($0.scenario)\u{0}\($0.contender)" })
    return names.map { name in
      let parts = name.split(separator: "\u{0}").map(String.init)
      let points = charted.filter { $0.scenario == parts[0] && $0.contender == parts[1] }
        .map { (n: $0.n, value: $0.value) }.sorted { $0.n < $1.n }
      return Series(scenario: parts[0], contender: parts[1], points: points)
    }
  }

  private enum Layout {
    static let width = 1080.0
    static let height = 600.0
    static let left = 90.0
    static let top = 80.0
    static let plotWidth = 600.0
    static let plotHeight = 440.0
    static var right: Double { left + plotWidth }
    static var bottom: Double { top + plotHeight }
  }

  /// Maps N and figures to the plot, both on whole decades.
  private struct Scale {
    var lowestXDecade: Int
    var highestXDecade: Int
    var lowestYDecade: Int
    var highestYDecade: Int

    init?(_ series: [Series]) {
      let points = series.flatMap(\.points)
      guard let minimumN = points.map(\.n).min(), let maximumN = points.map(\.n).max(),
        let minimumValue = points.map(\.value).min(), let maximumValue = points.map(\.value).max()
      else { return nil }
      (lowestXDecade, highestXDecade) = Self.decades(Double(minimumN), Double(maximumN))
      (lowestYDecade, highestYDecade) = Self.decades(minimumValue, maximumValue)
    }

    /// The whole decades around `minimum...maximum`, at least one decade apart.
    private static func decades(_ minimum: Double, _ maximum: Double) -> (Int, Int) {
      let low = Int(log10(minimum).rounded(.down))
      let high = max(Int(log10(maximum).rounded(.up)), low + 1)
      return (low, high)
    }

    func x(_ n: Double) -> Double {
      Layout.left + (log10(n) - Double(lowestXDecade)) / Double(highestXDecade - lowestXDecade) * Layout.plotWidth
    }

    func y(_ value: Double) -> Double {
      Layout.bottom - (log10(value) - Double(lowestYDecade)) / Double(highestYDecade - lowestYDecade)
        * Layout.plotHeight
    }
  }

  /// The style of each series: the dash of its scenario, and a colour of its contender's own, the same in every
  /// scenario, with a point shape of its own too once the palette is used up.
  static func styles(for series: [Series]) -> [Style] {
    let contenders = orderedUnique(series.map(\.contender))
    let index = Dictionary(uniqueKeysWithValues: contenders.enumerated().map { ($1, $0) })
    return series.map { Style($0, index: index[$0.contender] ?? 0) }
  }

  struct Style: Hashable {
    var color: String
    var width: Double
    var dash: String?
    var marker: SVGCanvas.Marker

    // The Okabe–Ito palette, told apart with every common kind of colour blindness, then Tol's muted colours for
    // the peers a chart may add.
    private static let palette = [
      "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#882255", "#44AA99", "#999933",
      "#332288", "#AA4499", "#888888", "#CC6677", "#117733", "#88CCEE", "#DDCC77",
    ]
    private static let libraryContenders: Set = [
      ContenderName.output.name, ContenderName.outputBounded.name, ContenderName.outputToken.name,
      ContenderName.broadcaster.name,
    ]

    init(_ series: Series, index: Int) {
      color = Self.palette[index % Self.palette.count]
      let markers = SVGCanvas.Marker.allCases
      marker = markers[(index / Self.palette.count) % markers.count]
      width = Self.libraryContenders.contains(series.contender) ? 3.5 : 2
      dash =
        switch series.scenario {
        case Scenario.sourceFanout.name: "7 4"
        case Scenario.mainActor.name: "2 3"
        default: nil
        }
    }
  }

  private static func drawAxes(_ scale: Scale, on svg: inout SVGCanvas) {
    svg.rectangle(x: Layout.left, y: Layout.top, width: Layout.plotWidth, height: Layout.plotHeight)
    for decade in scale.lowestYDecade...scale.highestYDecade {
      let value = pow(10, Double(decade))
      let y = scale.y(value)
      svg.line(x1: Layout.left, y1: y, x2: Layout.right, y2: y, color: "#bbbbbb")
      svg.text(decadeLabel(decade), x: Layout.left - 8, y: y + 4, size: 12, anchor: "end")
      guard decade < scale.highestYDecade else { continue }
      for multiple in 2...9 {
        let minorY = scale.y(value * Double(multiple))
        svg.line(x1: Layout.left, y1: minorY, x2: Layout.right, y2: minorY, color: "#eeeeee")
      }
    }
    for decade in scale.lowestXDecade...scale.highestXDecade {
      let x = scale.x(pow(10, Double(decade)))
      svg.line(x1: x, y1: Layout.top, x2: x, y2: Layout.bottom, color: "#bbbbbb")
      svg.text(decadeLabel(decade), x: x, y: Layout.bottom + 18, size: 12, anchor: "middle")
    }
    svg.text(
      "N, responders reached by each event (log scale)", x: Layout.left + Layout.plotWidth / 2,
      y: Layout.bottom + 42, size: 13, anchor: "middle")
    svg.text(
      "ns per delivery (log scale)", x: 24, y: Layout.top + Layout.plotHeight / 2, size: 13, anchor: "middle",
      rotation: -90)
  }

  private static func draw(_ series: Series, style: Style, scale: Scale, on svg: inout SVGCanvas) {
    let coordinates = series.points.map { (x: scale.x(Double($0.n)), y: scale.y($0.value)) }
    svg.polyline(coordinates, color: style.color, width: style.width, dash: style.dash)
    for (point, coordinate) in zip(series.points, coordinates) {
      svg.marker(
        style.marker, x: coordinate.x, y: coordinate.y, radius: style.width + 1, color: style.color,
        tooltip: "\(series.label), N = \(point.n): \(FigureFormat.value(point.value, unit: "ns")) per delivery")
    }
  }

  private static func drawLegend(_ series: [Series], styles: [Style], on svg: inout SVGCanvas) {
    let x = Layout.right + 24
    svg.text("Contender (scenario): ns per delivery at the largest N", x: x, y: Layout.top + 4, size: 12)
    for (index, (line, style)) in zip(series, styles).enumerated() {
      let y = Layout.top + 28 + Double(index) * 24
      svg.polyline([(x, y), (x + 30, y)], color: style.color, width: style.width, dash: style.dash)
      svg.marker(style.marker, x: x + 15, y: y, radius: style.width + 1, color: style.color, tooltip: nil)
      let last = line.points[line.points.count - 1]
      svg.text(
        "\(line.label): \(FigureFormat.value(last.value, unit: "ns")) at N = \(decimalLabel(last.n))", x: x + 40,
        y: y + 4, size: 12)
    }
  }

  /// `10^decade` as an axis label: `0.01`, `1`, `100`, `10k`, `1M`.
  static func decadeLabel(_ decade: Int) -> String {
    if decade < 0 { return "0." + String(repeating: "0", count: -decade - 1) + "1" }
    let suffixes = [(9, "G"), (6, "M"), (3, "k")]
    for (exponent, suffix) in suffixes where decade >= exponent {
      return "1" + String(repeating: "0", count: decade - exponent) + suffix
    }
    return "1" + String(repeating: "0", count: decade)
  }

  /// N as a label: `10000` as `10k` when it is a whole number of thousands.
  private static func decimalLabel(_ n: Int) -> String {
    n >= 1000 && n.isMultiple(of: 1000) ? "\(n / 1000)k" : String(n)
  }
}
