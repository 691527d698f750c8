/// `memory`: the heap bytes one subscription costs.
///
/// The contender and its N responders are allocated first; the figure is the heap growth across
/// ``Contender/subscribeAll()`` alone, divided by N. It counts everything subscribing allocates and keeps
/// (entries, closure contexts, tokens, growth of the subscriber storage, a broadcaster's upstream observer) and
/// nothing the app would have anyway (the responders). See ``HeapUsage`` for how the heap is read.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum MemoryScenario {
  /// Bytes per subscriber for each of `contenders` at `responderCount`, each the median of
  /// `plan.repetitions` fresh set-ups after one unmeasured round.
  ///
  /// - Throws: ``MeasurementFailure`` where the platform cannot tell heap usage.
  static func measure(
    contenders: [ContenderName], responderCount: Int, plan: MeasurementPlan
  ) throws(MeasurementFailure) -> [Double] {
    // The warm-up: the first subscribe of a kind makes runtime metadata, caches and NotificationCenter tables
    // that every later one shares; they are not a cost per subscriber.
    for name in contenders {
      _ = try bytesPerSubscriber(name, responderCount: responderCount)
    }
    var samples = Array(repeating: [Double](), count: contenders.count)
    for _ in 0..<plan.repetitions {
      for (index, name) in contenders.enumerated() {
        samples[index].append(try bytesPerSubscriber(name, responderCount: responderCount))
      }
    }
    return samples.map(Statistics.median)
  }

  /// One set-up of `name` with `responderCount` responders: heap growth across subscribing them, ÷ N.
  static func bytesPerSubscriber(
    _ name: ContenderName, responderCount: Int
  ) throws(MeasurementFailure) -> Double {
    let contender = name.makeContender(responderCount: responderCount)
    guard let growth = HeapUsage.growth(across: contender.subscribeAll) else {
      throw MeasurementFailure(message: "the memory scenario needs heap statistics, which this platform lacks")
    }
    withExtendedLifetime(contender) {}
    return Double(growth) / Double(responderCount)
  }
}
