import BenchHarness

/// What a figure counts, and in which unit. Every metric that ranks contenders is better when lower; the counts of an
/// overload run describe it instead (``isLowerBetter``).
enum Metric: String, CaseIterable, Sendable {
  case nanosecondsPerDelivery = "ns_per_delivery"
  case mainQueueBlocksPerEvent = "main_queue_blocks_per_event"
  case subscriptions
  case nanosecondsPerCycle = "ns_per_cycle"
  case bytesPerSubscriber = "bytes_per_subscriber"
  /// The most the heap grew during an overload run, above the heap before it.
  case peakHeapBytes = "peak_heap_bytes"
  /// The most events waiting for one subscriber during an overload run, sampled.
  case peakWaiting = "peak_waiting"
  /// Events the sender of an overload run sent.
  case sent
  /// Handler calls of an overload run, all N subscribers together.
  case delivered
  /// Events the buffering policies of an overload run dropped, all N subscribers together.
  case dropped

  /// The report name.
  var name: String { rawValue }

  var unit: String {
    switch self {
    case .nanosecondsPerDelivery, .nanosecondsPerCycle: "ns"
    case .mainQueueBlocksPerEvent: "blocks"
    case .subscriptions, .peakWaiting, .sent, .delivered, .dropped: "count"
    case .bytesPerSubscriber, .peakHeapBytes: "bytes"
    }
  }

  /// Whether the metric counts something, so its figures are whole numbers.
  var isCount: Bool { unit == "count" || self == .peakHeapBytes }

  /// Whether tables show each figure's ratio to the scenario's reference: not for counts of things, which say
  /// what they are without one.
  var showsRatio: Bool { !isCount && self != .mainQueueBlocksPerEvent }

  /// Whether a lower figure is a better one, so that tables say so and `--compare` judges a change. Not for the
  /// figures of an overload run: how many events were sent, delivered, dropped and waited, and the heap they took,
  /// depend on how fast the sender is beside its subscribers on the machine as much as on the code, and a faster send
  /// makes an unbounded subscriber's backlog longer, not worse code.
  var isLowerBetter: Bool {
    switch self {
    case .peakHeapBytes, .peakWaiting, .sent, .delivered, .dropped: false
    default: true
    }
  }

  /// Heading words for tables and charts.
  var description: String {
    switch self {
    case .nanosecondsPerDelivery: "ns per delivery"
    case .mainQueueBlocksPerEvent: "main-queue blocks per event"
    case .subscriptions: "upstream subscriptions"
    case .nanosecondsPerCycle: "ns per subscribe + cancel"
    case .bytesPerSubscriber: "bytes per subscriber"
    case .peakHeapBytes: "peak heap growth"
    case .peakWaiting: "peak events waiting for one subscriber"
    case .sent: "events sent"
    case .delivered: "events delivered, all N subscribers together"
    case .dropped: "events dropped, all N subscribers together"
    }
  }

  /// `value` as a table shows it: heap sizes in kB and MB (decimal), counts whole, other figures to three digits.
  func formatted(_ value: Double) -> String {
    self == .peakHeapBytes ? FigureFormat.bytes(value) : FigureFormat.number(value, isCount: isCount)
  }
}
