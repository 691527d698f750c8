/// The summary statistics a run reports.
public enum Statistics {
  /// The middle value of `values`, or the mean of the two middle values when there is an even number of them.
  ///
  /// The median, not the mean: a repetition interrupted by another process is an outlier in one direction
  /// only, and must not move the figure.
  ///
  /// - Parameter values: The repetitions' figures; not empty.
  /// - Returns: The median.
  public static func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "the median of no values")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  /// The median and range of `values`.
  ///
  /// - Parameter values: The repetitions' figures; not empty.
  /// - Returns: Their summary.
  public static func summary(_ values: [Double]) -> Summary {
    Summary(median: median(values), minimum: values.min() ?? 0, maximum: values.max() ?? 0)
  }

  /// One figure and its spread over the repetitions.
  public struct Summary: Equatable, Sendable {
    /// The figure: the median repetition.
    public var median: Double
    /// The smallest repetition (for a time, the fastest).
    public var minimum: Double
    /// The largest repetition (for a time, the slowest).
    public var maximum: Double

    /// Creates a summary.
    public init(median: Double, minimum: Double, maximum: Double) {
      self.median = median
      self.minimum = minimum
      self.maximum = maximum
    }

    /// A figure with no spread, such as a count.
    public init(exactly value: Double) {
      self.init(median: value, minimum: value, maximum: value)
    }
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
  /// The duration in nanoseconds, fractions included.
  public var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}
