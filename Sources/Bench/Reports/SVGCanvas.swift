import BenchHarness

/// Collects SVG elements into a standalone document. Text content is escaped; attribute values are the chart's
/// own constants and numbers.
struct SVGCanvas {
  var width: Double
  var height: Double
  private var elements: [String] = []

  init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  var document: String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(number(width))" height="\(number(height))" \
    viewBox="0 0 \(number(width)) \(number(height))" font-family="Helvetica, Arial, sans-serif">
    <rect x="0" y="0" width="\(number(width))" height="\(number(height))" fill="#ffffff"/>
    \(elements.joined(separator: "\n"))
    </svg>

    """
  }

  mutating func text(
    _ content: String, x: Double, y: Double, size: Double, anchor: String = "start", weight: String = "normal",
    color: String = "#000000", rotation: Double? = nil
  ) {
    let transform = rotation.map { " transform=\"rotate(\(number($0)) \(number(x)) \(number(y)))\"" } ?? ""
    elements.append(
      "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(number(size))\" text-anchor=\"\(anchor)\" "
        + "font-weight=\"\(weight)\" fill=\"\(color)\"\(transform)>\(escaped(content))</text>")
  }

  mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, color: String) {
    elements.append(
      "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" "
        + "stroke=\"\(color)\" stroke-width=\"1\"/>")
  }

  mutating func rectangle(x: Double, y: Double, width: Double, height: Double) {
    elements.append(
      "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\" "
        + "fill=\"none\" stroke=\"#666666\" stroke-width=\"1\"/>")
  }

  mutating func polyline(_ points: [(x: Double, y: Double)], color: String, width: Double, dash: String?) {
    let coordinates = points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
    let dashing = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
    elements.append(
      "<polyline points=\"\(coordinates)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(number(width))\" "
        + "stroke-linejoin=\"round\"\(dashing)/>")
  }

  mutating func circle(x: Double, y: Double, radius: Double, color: String, tooltip: String?) {
    let circle = "<circle cx=\"\(number(x))\" cy=\"\(number(y))\" r=\"\(number(radius))\" fill=\"\(color)\""
    guard let tooltip else {
      elements.append(circle + "/>")
      return
    }
    elements.append(circle + "><title>\(escaped(tooltip))</title></circle>")
  }

  /// The shape of a point, for telling apart series that would otherwise look alike.
  enum Marker: CaseIterable, Hashable {
    case circle, square, diamond, triangle
  }

  /// A point drawn as `marker`, `radius` from its centre to its edge, with `tooltip` as its title.
  mutating func marker(
    _ marker: Marker, x: Double, y: Double, radius: Double, color: String, tooltip: String?
  ) {
    let shape: String
    switch marker {
    case .circle:
      circle(x: x, y: y, radius: radius, color: color, tooltip: tooltip)
      return
    case .square:
      shape =
        "<rect x=\"\(number(x - radius))\" y=\"\(number(y - radius))\" width=\"\(number(2 * radius))\" "
        + "height=\"\(number(2 * radius))\" fill=\"\(color)\""
    case .diamond:
      let corners = [(x, y - radius * 1.3), (x + radius * 1.3, y), (x, y + radius * 1.3), (x - radius * 1.3, y)]
      shape = polygon(corners, color: color)
    case .triangle:
      let corners = [(x, y - radius * 1.3), (x + radius * 1.2, y + radius), (x - radius * 1.2, y + radius)]
      shape = polygon(corners, color: color)
    }
    let element = shape.hasPrefix("<rect") ? "rect" : "polygon"
    guard let tooltip else {
      elements.append(shape + "/>")
      return
    }
    elements.append(shape + "><title>\(escaped(tooltip))</title></\(element)>")
  }

  private func polygon(_ corners: [(Double, Double)], color: String) -> String {
    let points = corners.map { "\(number($0.0)),\(number($0.1))" }.joined(separator: " ")
    return "<polygon points=\"\(points)\" fill=\"\(color)\""
  }

  private func number(_ value: Double) -> String {
    FigureFormat.decimal(value, fractionDigits: 1)
  }

  private func escaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
