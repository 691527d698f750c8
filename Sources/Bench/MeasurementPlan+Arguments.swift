import BenchHarness

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension MeasurementPlan {
  /// The plan a command line asks for: ``MeasurementPlan/quick`` for `--quick`, ``MeasurementPlan/full``
  /// otherwise, with `--iterations` fixing the work per repetition.
  init(_ arguments: Arguments) {
    self = arguments.isQuick ? .quick : .full
    fixedIterations = arguments.iterations
  }
}
