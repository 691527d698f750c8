import BenchHarness

@testable import Bench

/// Reports with known figures, for the report and comparison tests.
enum SampleReports {
  static let current = BenchReport(
    toolchain: "Swift 6.3, Linux x86_64, release build", date: "2026-01-02T03:04:05Z",
    results: [
      ResultRow(scenario: "fanout", contender: "direct-call", n: 1, metric: "ns_per_delivery", value: 1.5, unit: "ns"),
      ResultRow(scenario: "fanout", contender: "output", n: 1, metric: "ns_per_delivery", value: 6, unit: "ns"),
      ResultRow(
        scenario: "fanout", contender: "direct-call", n: 100, metric: "ns_per_delivery", value: 1.2, unit: "ns"),
      ResultRow(scenario: "fanout", contender: "output", n: 100, metric: "ns_per_delivery", value: 3.6, unit: "ns"),
      ResultRow(
        scenario: "source-fanout", contender: "per-observer", n: 1, metric: "ns_per_delivery", value: 900, unit: "ns"),
      ResultRow(
        scenario: "source-fanout", contender: "broadcaster", n: 1, metric: "ns_per_delivery", value: 950, unit: "ns"),
      ResultRow(
        scenario: "source-fanout", contender: "per-observer", n: 100, metric: "ns_per_delivery", value: 880, unit: "ns"),
      ResultRow(
        scenario: "source-fanout", contender: "broadcaster", n: 100, metric: "ns_per_delivery", value: 20, unit: "ns"),
      ResultRow(
        scenario: "main-actor", contender: "main-queue-async", n: 10, metric: "ns_per_delivery", value: 900, unit: "ns"),
      ResultRow(scenario: "main-actor", contender: "output", n: 10, metric: "ns_per_delivery", value: 450, unit: "ns"),
      ResultRow(
        scenario: "main-actor", contender: "main-queue-async", n: 10, metric: "main_queue_blocks_per_event",
        value: 10, unit: "blocks"),
      ResultRow(
        scenario: "main-actor", contender: "output", n: 10, metric: "main_queue_blocks_per_event", value: 0.01,
        unit: "blocks"),
      ResultRow(
        scenario: "upstream", contender: "per-observer", n: 100, metric: "subscriptions", value: 100, unit: "count"),
      ResultRow(
        scenario: "upstream", contender: "broadcaster", n: 100, metric: "subscriptions", value: 1, unit: "count"),
      ResultRow(
        scenario: "memory", contender: "output", n: 100, metric: "bytes_per_subscriber", value: 96.5, unit: "bytes"),
    ])
}
