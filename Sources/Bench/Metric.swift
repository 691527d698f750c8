import BenchHarness

/// What a figure counts, and in which unit. Every metric is better when lower.
enum Metric: String, CaseIterable, Sendable {
  case nanosecondsPerDelivery = "ns_per_delivery"
  case mainQueueBlocksPerEvent = "main_queue_blocks_per_event"
  case subscriptions
  case nanosecondsPerCycle = "ns_per_cycle"
  case bytesPerSubscriber = "bytes_per_subscriber"

  /// The report name.
  var name: String { rawValue }

  var unit: String {
    switch self {
    case .nanosecondsPerDelivery, .nanosecondsPerCycle: "ns"
    case .mainQueueBlocksPerEvent: "blocks"
    case .subscriptions: "count"
    case .bytesPerSubscriber: "bytes"
    }
  }

  /// Whether the metric counts something, so its figures are whole numbers.
  var isCount: Bool { self == .subscriptions }

  /// Whether tables show each figure's ratio to the scenario's reference: not for counts of things, which say
  /// what they are without one.
  var showsRatio: Bool { self != .subscriptions && self != .mainQueueBlocksPerEvent }

  /// Heading words for tables and charts.
  var description: String {
    switch self {
    case .nanosecondsPerDelivery: "ns per delivery"
    case .mainQueueBlocksPerEvent: "main-queue blocks per event"
    case .subscriptions: "upstream subscriptions"
    case .nanosecondsPerCycle: "ns per subscribe + cancel"
    case .bytesPerSubscriber: "bytes per subscriber"
    }
  }
}
