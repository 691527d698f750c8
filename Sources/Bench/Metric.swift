import BenchHarness

/// What a figure counts, and in which unit. Every metric is better when lower.
enum Metric: String, CaseIterable, Sendable {
  case nanosecondsPerDelivery = "ns_per_delivery"
  case subscriptions
  case nanosecondsPerCycle = "ns_per_cycle"
  case bytesPerSubscriber = "bytes_per_subscriber"

  /// The report name.
  var name: String { rawValue }

  var unit: String {
    switch self {
    case .nanosecondsPerDelivery, .nanosecondsPerCycle: "ns"
    case .subscriptions: "count"
    case .bytesPerSubscriber: "bytes"
    }
  }

  /// Whether the metric counts something, so its figures are whole numbers.
  var isCount: Bool { self == .subscriptions }

  /// Heading words for tables and charts.
  var description: String {
    switch self {
    case .nanosecondsPerDelivery: "ns per delivery"
    case .subscriptions: "upstream subscriptions"
    case .nanosecondsPerCycle: "ns per subscribe + cancel"
    case .bytesPerSubscriber: "bytes per subscriber"
    }
  }
}
