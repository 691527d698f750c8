/// One figure of a run: a row of the JSON report.
///
/// `scenario`, `contender`, `n`, `metric`, `value` and `unit` are schema 1's required fields. `min` and `max`, the
/// smallest and largest repetition, are optional: `--compare` uses them to tell a change from noise, and reports
/// without them still load.
public struct ResultRow: Codable, Equatable, Sendable {
  /// The scenario's report name, such as `fanout`.
  public var scenario: String
  /// The contender's report name, such as `output`.
  public var contender: String
  /// Responders subscribed.
  public var n: Int
  /// What the figure counts, such as `ns_per_delivery`.
  public var metric: String
  /// The figure: the median repetition.
  public var value: Double
  /// The figure's unit, such as `ns`.
  public var unit: String
  /// The smallest repetition, if recorded.
  public var min: Double?
  /// The largest repetition, if recorded.
  public var max: Double?

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - scenario: The scenario's report name.
  ///   - contender: The contender's report name.
  ///   - n: Responders subscribed.
  ///   - metric: What the figure counts.
  ///   - value: The figure.
  ///   - unit: The figure's unit.
  ///   - min: The smallest repetition, or `nil`.
  ///   - max: The largest repetition, or `nil`.
  public init(
    scenario: String, contender: String, n: Int, metric: String, value: Double, unit: String, min: Double? = nil,
    max: Double? = nil
  ) {
    self.scenario = scenario
    self.contender = contender
    self.n = n
    self.metric = metric
    self.value = value
    self.unit = unit
    self.min = min
    self.max = max
  }

  /// What identifies the figure across runs, for `--compare`.
  public var key: Key { Key(scenario: scenario, contender: contender, n: n, metric: metric) }

  /// What identifies a figure across runs.
  public struct Key: Hashable, Sendable {
    /// The scenario's report name.
    public var scenario: String
    /// The contender's report name.
    public var contender: String
    /// Responders subscribed.
    public var n: Int
    /// What the figure counts.
    public var metric: String
  }
}
