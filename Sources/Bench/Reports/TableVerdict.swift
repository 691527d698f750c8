import BenchHarness

/// The line under a table that says what it means: this library's contender against the best of the others, at the
/// largest N both were measured at.
///
/// ```
/// output is 8.32× faster than main-actor-message at N = 1000
/// broadcaster holds 1 upstream subscription where per-observer holds 10000, at N = 10000
/// ```
///
/// The others are the scenario's contenders that are not this library's and not `direct-call` (the limit of no
/// mechanism at all, which nothing competes with); peers from another run are left out, their figures being of
/// another run.
struct TableVerdict: CustomStringConvertible {
  var contender: String
  var rival: String
  var n: Int
  var metric: Metric
  var value: Double
  var rivalValue: Double

  /// This library's contenders, the first one present being the one a verdict speaks for.
  static let library: [ContenderName] = [.output, .broadcaster]
  private static let notRivals: Set<ContenderName> = [.output, .outputBounded, .outputToken, .broadcaster, .directCall]

  /// The verdict on the figures of one scenario and metric; `nil` when they lack this library's contender, a rival
  /// at the same N, or figures above zero, and for figures that describe a run rather than rank it (the overload
  /// scenarios', whose verdict is ``OverloadVerdict``).
  init?(_ rows: [ResultRow]) {
    guard let first = rows.first, let scenario = Scenario(rawValue: first.scenario),
      let metric = Metric(rawValue: first.metric), metric.isLowerBetter
    else { return nil }
    let present = Set(rows.map(\.contender))
    guard let library = Self.library.first(where: { present.contains($0.name) }) else { return nil }
    let rivals = Set(scenario.contenders.filter { !Self.notRivals.contains($0) }.map(\.name))
    let ownRows = rows.filter { $0.contender == library.name && $0.value.isFinite }
    for own in ownRows.sorted(by: { $0.n > $1.n }) {
      let candidates = rows.filter { rivals.contains($0.contender) && $0.n == own.n && $0.value.isFinite }
      guard let best = candidates.min(by: { $0.value < $1.value }) else { continue }
      guard metric.isCount || metric == .mainQueueBlocksPerEvent || (own.value > 0 && best.value > 0) else {
        return nil
      }
      (contender, rival, n, self.metric, value, rivalValue) =
        (library.name, best.contender, own.n, metric, own.value, best.value)
      return
    }
    return nil
  }

  var description: String {
    let at = "at N = \(n)"
    switch metric {
    case .subscriptions:
      return "\(contender) holds \(FigureFormat.number(value, isCount: true)) upstream "
        + "\(value == 1 ? "subscription" : "subscriptions") where \(rival) holds "
        + "\(FigureFormat.number(rivalValue, isCount: true)), \(at)"
    case .mainQueueBlocksPerEvent:
      return "\(contender) hands the main queue \(FigureFormat.number(value, isCount: false)) blocks per event where "
        + "\(rival) hands it \(FigureFormat.number(rivalValue, isCount: false)), \(at)"
    case .bytesPerSubscriber:
      return comparison(better: "less memory per subscriber than", worse: "more memory per subscriber than", at: at)
    case .nanosecondsPerDelivery, .nanosecondsPerCycle:
      return comparison(better: "faster than", worse: "slower than", at: at)
    case .peakHeapBytes, .peakWaiting, .sent, .delivered, .dropped:
      // Never made (see `init`); the overload scenarios have a verdict of their own.
      return "\(contender): \(FigureFormat.number(value)), \(rival): \(FigureFormat.number(rivalValue)), \(at)"
    }
  }

  /// "`contender` is R× `better` `rival`", R the larger of the two figures over the smaller; within 5 % "about as
  /// fast as" (or as small as).
  private func comparison(better: String, worse: String, at: String) -> String {
    let ratio = rivalValue / value
    if ratio < 1.05 && ratio > 1 / 1.05 {
      let same = metric == .bytesPerSubscriber ? "about as small as" : "about as fast as"
      return "\(contender) is \(same) \(rival) (\(FigureFormat.ratio(ratio))) \(at)"
    }
    return ratio >= 1
      ? "\(contender) is \(FigureFormat.ratio(ratio)) \(better) \(rival) \(at)"
      : "\(contender) is \(FigureFormat.ratio(1 / ratio)) \(worse) \(rival) \(at)"
  }
}
