/// One figure of a run: a row of the JSON report.
struct ResultRow: Codable, Equatable, Sendable {
  var scenario: String
  var contender: String
  var n: Int
  var metric: String
  var value: Double
  var unit: String
}

extension ResultRow {
  init(scenario: Scenario, contender: ContenderName, n: Int, value: Double) {
    self.init(
      scenario: scenario.name, contender: contender.name, n: n, metric: scenario.metric.name, value: value,
      unit: scenario.metric.unit)
  }

  /// What identifies the figure across runs, for `--compare`.
  var key: Key { Key(scenario: scenario, contender: contender, n: n, metric: metric) }

  struct Key: Hashable, Sendable {
    var scenario: String
    var contender: String
    var n: Int
    var metric: String
  }
}
