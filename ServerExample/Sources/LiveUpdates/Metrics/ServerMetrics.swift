import CoreMetrics
import Prometheus

/// The process's metrics, through swift-metrics into a Prometheus registry of its own, served as text at
/// `GET /metrics` (operator claim required).
///
/// Every refusal is counted by its reason: `live_updates_refusals_total{reason="unauthorized"}` and so on, one series
/// per ``Refusal/Kind``, present from the start at 0; so is every connection closed by its deadlines,
/// `live_updates_connections_closed_total{reason="request_head_timeout"}` and `{reason="idle_timeout"}`. Gauges give the clients, topics and LISTEN connections at the
/// time of the scrape (``update(_:)``), and a histogram how long writing each frame to a client took.
public final class ServerMetrics: Sendable {
  /// The registry the metrics are kept in.
  public let registry: PrometheusCollectorRegistry
  private let refusals: [Refusal.Kind: CoreMetrics.Counter]
  private let evictions: CoreMetrics.Counter
  private let slowClients: CoreMetrics.Counter
  private let closedConnections: [HTTPConnectionLimits.Expiry: CoreMetrics.Counter]
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
    var closedConnections: [HTTPConnectionLimits.Expiry: CoreMetrics.Counter] = [:]
    for expiry in HTTPConnectionLimits.Expiry.allCases {
      closedConnections[expiry] = CoreMetrics.Counter(
        label: "live_updates_connections_closed_total", dimensions: [("reason", expiry.rawValue)], factory: factory)
    }
    self.closedConnections = closedConnections
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

  /// Counts a connection closed because it did not send its request head in time (`request_head_timeout`), or sent
  /// nothing for too long between requests (`idle_timeout`).
  @Sendable public func closedConnection(_ expiry: HTTPConnectionLimits.Expiry) {
    closedConnections[expiry]?.increment()
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
