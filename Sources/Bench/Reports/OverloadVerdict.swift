import BenchHarness

/// The line under the first table of an overload scenario: how many events waited for one unbounded subscriber at
/// the peak, and the heap they took, against the bounded policy that took the most, at the largest N both were
/// measured at.
///
/// ```
/// at N = 10, unbounded: 1.23 M events waited for one subscriber at the peak, 145 MB of heap; newest-100: at most 101,
/// 312 kB: the policy bounds memory, not the run's length
/// ```
struct OverloadVerdict: CustomStringConvertible {
  var n: Int
  var unboundedWaiting: Double
  var unboundedHeapBytes: Double?
  /// The bounded contender that took the most heap (without heap figures: that let the most events wait).
  var bounded: String
  var boundedWaiting: Double
  var boundedHeapBytes: Double?

  /// The verdict on the figures of one overload scenario, all its metrics; `nil` for another scenario, and when
  /// `unbounded` and a bounded contender lack a `peak_waiting` figure at the same N.
  init?(_ rows: [ResultRow]) {
    guard let scenario = rows.first.flatMap({ Scenario(rawValue: $0.scenario) }), scenario.isOverload else {
      return nil
    }
    func value(_ contender: String, _ metric: Metric, _ n: Int) -> Double? {
      rows.first { $0.contender == contender && $0.metric == metric.name && $0.n == n }?.value
    }
    let boundedNames = scenario.contenders.filter { $0 != .unbounded }.map(\.name)
    for n in Set(rows.map(\.n)).sorted(by: >) {
      guard let unboundedWaiting = value(ContenderName.unbounded.name, .peakWaiting, n) else { continue }
      let candidates = boundedNames.compactMap { name in
        value(name, .peakWaiting, n).map { (name: name, waiting: $0, heapBytes: value(name, .peakHeapBytes, n)) }
      }
      guard let worst = candidates.max(by: { ($0.heapBytes ?? 0, $0.waiting) < ($1.heapBytes ?? 0, $1.waiting) })
      else { continue }
      self.n = n
      self.unboundedWaiting = unboundedWaiting
      unboundedHeapBytes = value(ContenderName.unbounded.name, .peakHeapBytes, n)
      bounded = worst.name
      boundedWaiting = worst.waiting
      boundedHeapBytes = worst.heapBytes
      return
    }
    return nil
  }

  var description: String {
    let unbounded =
      "unbounded: \(FigureFormat.count(unboundedWaiting)) \(unboundedWaiting == 1 ? "event" : "events") waited for "
      + "one subscriber at the peak"
      + (unboundedHeapBytes.map { ", \(FigureFormat.bytes($0)) of heap" } ?? "")
    let bounded =
      "\(self.bounded): at most \(FigureFormat.count(boundedWaiting))"
      + (boundedHeapBytes.map { ", \(FigureFormat.bytes($0))" } ?? "")
    let meaning =
      unboundedWaiting > boundedWaiting
      ? "the policy bounds memory, not the run's length" : "the subscribers kept up, so no policy had anything to bound"
    return "at N = \(n), \(unbounded); \(bounded): \(meaning)"
  }
}
