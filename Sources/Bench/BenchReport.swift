/// A whole run: the JSON object `--json` writes, also read back by `--compare`.
struct BenchReport: Codable, Equatable, Sendable {
  /// The version of this shape. Readers refuse other versions.
  static let currentSchema = 1

  var schema: Int
  var toolchain: String
  var date: String
  var results: [ResultRow]

  init(toolchain: String, date: String, results: [ResultRow]) {
    self.schema = Self.currentSchema
    self.toolchain = toolchain
    self.date = date
    self.results = results
  }
}
