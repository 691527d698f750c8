import CoreMetrics
import Prometheus

/// The process's metrics, through swift-metrics into a Prometheus registry of its own, served as text at
/// `GET /metrics` (operator claim required).
///
/// Every refusal is counted by its reason: `live_updates_refusals_total{reason="unauthorized"}` and so on, one series
/// per ``Refusal/Kind``, present from the start at 0. Gauges give the clients, topics and LISTEN connections at the
/// time of the scrape (``update(_:)``), and a histogram how long writing each frame to a client took.
public final class ServerMetrics: Sendable {
  /// The registry the metrics are kept in.
  public let registry: PrometheusCollectorRegistry
  private let refusals: [Refusal.Kind: CoreMetrics.Counter]
  private let evictions: CoreMetrics.Counter
  private let slowClients: CoreMetrics.Counter
  private let clients: CoreMetrics.Gauge
  private let topics: CoreMetrics.Gauge
  private let listenConnections: CoreMetrics.Gauge
  private let listeningTopics: CoreMetrics.Gauge
  private let deliveryLatency: CoreMetrics.Timer

  /// Creates the metrics of one process, in a registry of their own (no global bootstrap: tests make many).
  public init() {
    registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.defaultDurationHistogramBuckets = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000].map {
      Duration.milliseconds($0)
    }
    var refusals: [Refusal.Kind: CoreMetrics.Counter] = [:]
    for kind in Refusal.Kind.allCases {
      refusals[kind] = CoreMetrics.Counter(
        label: "live_updates_refusals_total", dimensions: [("reason", kind.rawValue)], factory: factory)
    }
    self.refusals = refusals
    evictions = CoreMetrics.Counter(label: "live_updates_topics_evicted_total", factory: factory)
    slowClients = CoreMetrics.Counter(label: "live_updates_slow_clients_closed_total", factory: factory)
    clients = CoreMetrics.Gauge(label: "live_updates_clients", factory: factory)
    topics = CoreMetrics.Gauge(label: "live_updates_topics", factory: factory)
    listenConnections = CoreMetrics.Gauge(label: "live_updates_listen_connections", factory: factory)
    listeningTopics = CoreMetrics.Gauge(label: "live_updates_listening_topics", factory: factory)
    deliveryLatency = CoreMetrics.Timer(label: "live_updates_delivery_write_seconds", factory: factory)
  }

  /// Counts a refusal.
  public func refused(_ kind: Refusal.Kind) {
    refusals[kind]?.increment()
  }

  /// Counts a client closed because its socket did not drain, or its queue filled up.
  public func slowClientClosed() {
    slowClients.increment()
  }

  /// What the gauges show.
  public struct Levels: Sendable {
    public var clients = 0
    public var topics = 0
    public var listenConnections = 0
    public var listeningTopics = 0

    public init() {}
  }

  /// Sets the gauges, before a scrape.
  public func update(_ levels: Levels) {
    clients.record(levels.clients)
    topics.record(levels.topics)
    listenConnections.record(levels.listenConnections)
    listeningTopics.record(levels.listeningTopics)
  }

  /// Records how long writing one frame to a client took: its share of the delivery latency, and all of it that a
  /// slow socket adds.
  @Sendable public func delivered(in duration: Duration) {
    deliveryLatency.recordNanoseconds(
      duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
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
