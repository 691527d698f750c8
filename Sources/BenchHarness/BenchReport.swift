/// A whole run: the JSON object `--json` writes, also read back by `--compare`.
///
/// `{"schema": 1, "toolchain": "...", "date": "...", "machine": "...", "results": [ROW, …]}`, each row a
/// ``ResultRow``; `machine` is optional (earlier runs lack it).
public struct BenchReport: Codable, Equatable, Sendable {
  /// The version of this shape. Readers refuse other versions.
  public static let currentSchema = 1

  /// The shape's version.
  public var schema: Int
  /// What built the measuring program, such as `Swift 6.3, Linux x86_64, release build`.
  public var toolchain: String
  /// When the run finished, ISO 8601.
  public var date: String
  /// The machine it ran on, such as `Linux x86_64, 2 CPUs (AMD EPYC 7B13), 24 GiB`; `nil` if not recorded.
  public var machine: String?
  /// Every figure.
  public var results: [ResultRow]

  /// Creates a report of the current schema.
  ///
  /// - Parameters:
  ///   - toolchain: What built the measuring program.
  ///   - date: When the run finished.
  ///   - machine: The machine it ran on, or `nil`.
  ///   - results: Every figure.
  public init(toolchain: String, date: String, machine: String? = nil, results: [ResultRow]) {
    self.schema = Self.currentSchema
    self.toolchain = toolchain
    self.date = date
    self.machine = machine
    self.results = results
  }
}
