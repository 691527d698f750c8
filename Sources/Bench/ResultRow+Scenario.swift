import BenchHarness

extension ResultRow {
  /// A row for `contender`'s figure in `scenario` at `n`, with the spread of its repetitions.
  init(scenario: Scenario, contender: ContenderName, n: Int, figure: Statistics.Summary) {
    self.init(
      scenario: scenario.name, contender: contender.name, n: n, metric: scenario.metric.name, value: figure.median,
      unit: scenario.metric.unit, min: figure.minimum, max: figure.maximum)
  }
}
