/// The summary statistics a run reports.
enum Statistics {
  /// The middle value of `values`, or the mean of the two middle values when there is an even number of them.
  ///
  /// The median, not the mean: a repetition interrupted by another process is an outlier in one direction
  /// only, and must not move the figure.
  ///
  /// - Precondition: `values` is not empty.
  static func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "the median of no values")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
  /// The duration in nanoseconds, fractions included.
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}
