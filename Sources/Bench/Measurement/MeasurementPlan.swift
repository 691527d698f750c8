/// How long and how often each figure is measured.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct MeasurementPlan: Equatable, Sendable {
  /// Timed repetitions per figure; the figure is their median. At least 5.
  var repetitions: Int
  /// How long one repetition should take when the iterations are calibrated.
  var repetitionTarget: Duration
  /// Work per repetition, fixed by `--iterations`; `nil` calibrates to `repetitionTarget`.
  var fixedIterations: Int?

  /// The default run.
  static let full = MeasurementPlan(repetitions: 15, repetitionTarget: .milliseconds(10))
  /// `--quick`: the whole run in under 20 s.
  static let quick = MeasurementPlan(repetitions: 5, repetitionTarget: .milliseconds(2))

  /// The plan a command line asks for.
  init(_ arguments: Arguments) {
    self = arguments.isQuick ? .quick : .full
    fixedIterations = arguments.iterations
  }

  init(repetitions: Int, repetitionTarget: Duration, fixedIterations: Int? = nil) {
    self.repetitions = repetitions
    self.repetitionTarget = repetitionTarget
    self.fixedIterations = fixedIterations
  }
}
