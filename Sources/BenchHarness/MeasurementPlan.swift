/// How long and how often each figure is measured.
///
/// ```swift
/// let plan = MeasurementPlan(repetitions: 15, repetitionTarget: .milliseconds(10))
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct MeasurementPlan: Equatable, Sendable {
  /// Timed repetitions per figure; the figure is their median. At least 5.
  public var repetitions: Int
  /// How long one repetition should take when the iterations are calibrated.
  public var repetitionTarget: Duration
  /// Work per repetition, fixed; `nil` calibrates to `repetitionTarget`.
  public var fixedIterations: Int?

  /// The default run: 15 repetitions of about 10 ms.
  public static let full = MeasurementPlan(repetitions: 15, repetitionTarget: .milliseconds(10))
  /// A short run: 5 repetitions of about 2 ms.
  public static let quick = MeasurementPlan(repetitions: 5, repetitionTarget: .milliseconds(2))

  /// Creates a plan.
  ///
  /// - Parameters:
  ///   - repetitions: Timed repetitions per figure.
  ///   - repetitionTarget: How long one calibrated repetition should take.
  ///   - fixedIterations: Work per repetition instead of calibrating, or `nil`.
  public init(repetitions: Int, repetitionTarget: Duration, fixedIterations: Int? = nil) {
    self.repetitions = repetitions
    self.repetitionTarget = repetitionTarget
    self.fixedIterations = fixedIterations
  }

  /// The largest number of iterations a repetition may run.
  public static let maximumIterations = 1_000_000_000
}
