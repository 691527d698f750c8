import BenchHarness

/// `memory`: the heap bytes one subscription costs.
///
/// The contenders and their responders are allocated first; the figure is the heap growth across
/// ``Contender/subscribeAll()`` alone, divided by the subscriptions made. It counts everything subscribing allocates
/// and keeps (entries, closure contexts, observer records, growth of the subscriber storage, a broadcaster's
/// upstream observer) and nothing the app would have anyway (the responders, the `Output` or centre itself).
///
/// Below ``minimumSubscriptions`` responders (``quickMinimumSubscriptions`` with `--quick`), several copies of the
/// contender are measured together, each with N responders: the allocator's own caches make a single reading
/// uncertain by a few hundred bytes (see ``HeapUsage``), which must not decide a figure at N = 1.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum MemoryScenario {
  /// The subscriptions one reading covers at least.
  static let minimumSubscriptions = 10_000
  /// The subscriptions one reading covers at least with `--quick`: a few hundred bytes spread over them still move a
  /// figure by less than a byte.
  static let quickMinimumSubscriptions = 2_000

  /// Bytes per subscriber for each of `contenders` at `responderCount`, each the median of
  /// `plan.repetitions` fresh set-ups after one unmeasured round.
  ///
  /// - Throws: ``MeasurementFailure`` where the platform cannot tell heap usage.
  static func measure(
    contenders: [ContenderName], responderCount: Int, plan: MeasurementPlan,
    minimumSubscriptions: Int = minimumSubscriptions
  ) throws(MeasurementFailure) -> [Statistics.Summary] {
    // The warm-up: the first subscribe of a kind makes runtime metadata, caches and NotificationCenter tables
    // that every later one shares; they are not a cost per subscriber.
    for name in contenders {
      _ = try bytesPerSubscriber(name, responderCount: responderCount, minimumSubscriptions: minimumSubscriptions)
    }
    var samples = Array(repeating: [Double](), count: contenders.count)
    for _ in 0..<plan.repetitions {
      for (index, name) in contenders.enumerated() {
        samples[index].append(
          try bytesPerSubscriber(name, responderCount: responderCount, minimumSubscriptions: minimumSubscriptions))
      }
    }
    return samples.map(Statistics.summary)
  }

  /// One reading: heap growth across subscribing the responders of enough copies of `name`, each with
  /// `responderCount` responders, ÷ the subscriptions made.
  static func bytesPerSubscriber(
    _ name: ContenderName, responderCount: Int, minimumSubscriptions: Int = minimumSubscriptions
  ) throws(MeasurementFailure) -> Double {
    let copies = (minimumSubscriptions + responderCount - 1) / responderCount
    let contenders = (0..<copies).map { _ in name.makeContender(in: .memory, responderCount: responderCount) }
    let growth = HeapUsage.growth {
      for contender in contenders {
        contender.subscribeAll()
      }
    }
    guard let growth else {
      throw MeasurementFailure(message: "the memory scenario needs heap statistics, which this platform lacks")
    }
    withExtendedLifetime(contenders) {}
    return Double(growth) / Double(copies * responderCount)
  }
}
