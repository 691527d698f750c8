import BenchHarness

extension ResultRow {
  /// A row for `contender`'s figure of `metric` (the scenario's main one unless given) in `scenario` at `n`, with the
  /// spread of its repetitions.
  init(scenario: Scenario, metric: Metric? = nil, contender: ContenderName, n: Int, figure: Statistics.Summary) {
    let metric = metric ?? scenario.metric
    self.init(
      scenario: scenario.name, contender: contender.name, n: n, metric: metric.name, value: figure.median,
      unit: metric.unit, min: figure.minimum, max: figure.maximum)
  }
}
