/// A marked region of a document whose content `Bench --render-docs` generates: what it shows.
///
/// ```
/// <!-- figures:source-fanout n=1,100,10000 contenders=per-observer,broadcaster peers -->
/// (generated)
/// <!-- /figures -->
/// ```
///
/// The first word names the scenario; then, in any order: `metric=` one of its metrics (its main one by default),
/// `n=` the responder counts to show, `contenders=` the contenders to show, in results order, and `peers` to add the
/// peer comparison's rows.
struct FigureRegion: Equatable {
  var scenario: String
  var metric: String?
  var responderCounts: [Int]?
  var contenders: [String]?
  var includesPeers = false

  static let opening = "<!-- figures:"
  static let closing = "<!-- /figures -->"

  /// The region an opening marker line describes.
  ///
  /// - Throws: A message naming what is wrong with the marker.
  static func parse(_ line: String) throws(FigureRegionError) -> FigureRegion {
    let trimmed = line.trimmingWhitespace
    guard trimmed.hasPrefix(opening), trimmed.hasSuffix("-->") else {
      throw FigureRegionError(message: "'\(trimmed)' is not a figures marker: <!-- figures:SCENARIO [options] -->")
    }
    let words = trimmed.dropFirst(opening.count).dropLast(3).split(separator: " ").map(String.init)
    guard let scenario = words.first, !scenario.contains("=") else {
      throw FigureRegionError(message: "'\(trimmed)' names no scenario")
    }
    var region = FigureRegion(scenario: scenario)
    for word in words.dropFirst() {
      let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
      switch (parts[0], parts.count) {
      case ("peers", 1): region.includesPeers = true
      case ("metric", 2): region.metric = parts[1]
      case ("contenders", 2): region.contenders = parts[1].split(separator: ",").map(String.init)
      case ("n", 2):
        let counts = parts[1].split(separator: ",").compactMap { Int($0) }
        guard !counts.isEmpty, counts.count == parts[1].split(separator: ",").count else {
          throw FigureRegionError(message: "'\(word)' in '\(trimmed)' is not a list of whole numbers")
        }
        region.responderCounts = counts
      default:
        throw FigureRegionError(
          message: "unknown option '\(word)' in '\(trimmed)'; options: metric=, n=, contenders=, peers")
      }
    }
    return region
  }
}

/// A document whose figure regions cannot be rendered.
struct FigureRegionError: Error, Equatable {
  var message: String
}

extension String {
  /// The string without spaces and tabs at either end.
  var trimmingWhitespace: String {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
  }
}
