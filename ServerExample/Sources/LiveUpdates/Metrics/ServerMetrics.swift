import CoreMetrics
import Prometheus

/// The process's metrics, through swift-metrics into a Prometheus registry of its own, served as text at
/// `GET /metrics` (operator claim required).
///
/// Every refusal is counted by its reason: `live_updates_refusals_total{reason="unauthorized"}` and so on, one series
/// per ``Refusal/Kind``, present from the start at 0.
public final class ServerMetrics: Sendable {
  /// The registry the metrics are kept in.
  public let registry: PrometheusCollectorRegistry
  private let refusals: [Refusal.Kind: CoreMetrics.Counter]
  private let evictions: CoreMetrics.Counter
  private let slowClients: CoreMetrics.Counter

  /// Creates the metrics of one process, in a registry of their own (no global bootstrap: tests make many).
  public init() {
    registry = PrometheusCollectorRegistry()
    let factory = PrometheusMetricsFactory(registry: registry)
    var refusals: [Refusal.Kind: CoreMetrics.Counter] = [:]
    for kind in Refusal.Kind.allCases {
      refusals[kind] = Counter(
        label: "live_updates_refusals_total", dimensions: [("reason", kind.rawValue)], factory: factory)
    }
    self.refusals = refusals
    evictions = Counter(label: "live_updates_topics_evicted_total", factory: factory)
    slowClients = Counter(label: "live_updates_slow_clients_closed_total", factory: factory)
  }

  /// Counts a refusal.
  public func refused(_ kind: Refusal.Kind) {
    refusals[kind]?.increment()
  }

  /// Counts a client closed because its socket did not drain, or its queue filled up.
  public func slowClientClosed() {
    slowClients.increment()
  }

  /// Counts topics evicted from the topic table.
  @Sendable public func evicted(_ count: Int) {
    evictions.increment(by: count)
  }

  /// The metrics in Prometheus's text format.
  public var exposition: String {
    registry.emitToString()
  }
}
