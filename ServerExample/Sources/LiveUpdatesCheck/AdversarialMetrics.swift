import LiveUpdates
import Synchronization

/// The counters of a server's `/metrics` the adversarial round compares before and after, read with the operator's
/// token; all zero if they cannot be read.
struct Metrics: Sendable {
  /// `live_updates_refusals_total`, by reason.
  var refusals: [String: Int] = [:]
  /// `live_updates_slow_clients_closed_total`.
  var slowClients = 0
  /// `live_updates_topics_evicted_total`.
  var evicted = 0
  /// `live_updates_connections_closed_total{reason="request_head_timeout"}`.
  var headTimeouts = 0

  static func read(from server: CheckOptions.Server) async -> Metrics {
    guard let connection = try? await HTTPConnection.connect(host: server.host, port: server.port) else {
      return Metrics()
    }
    let response = try? await connection.request(.GET, "/metrics")
    await connection.close()
    guard let response, response.status == 200 else { return Metrics() }
    return Metrics(exposition: String(buffer: response.body))
  }

  /// The counters in Prometheus's text format.
  init(exposition: String) {
    for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
        continue
      }
      let series = line[..<space]
      if series.hasPrefix("live_updates_refusals_total{"), let start = series.range(of: #"reason=""#) {
        let reason = series[start.upperBound...].prefix { $0 != "\"" }
        refusals[String(reason), default: 0] += Int(value)
      } else if series == "live_updates_slow_clients_closed_total" {
        slowClients = Int(value)
      } else if series == "live_updates_topics_evicted_total" {
        evicted = Int(value)
      } else if series == #"live_updates_connections_closed_total{reason="request_head_timeout"}"# {
        headTimeouts = Int(value)
      }
    }
  }

  init() {}
}

/// The refusals the adversarial round provoked, per server and reason.
final class ProvokedRefusals: Sendable {
  private let table = Mutex<[String: [Refusal.Kind: Int]]>([:])

  func add(_ kind: Refusal.Kind, on process: String) {
    table.withLock { $0[process, default: [:]][kind, default: 0] += 1 }
  }

  func counts(of process: String) -> [(key: Refusal.Kind, value: Int)] {
    table.withLock { $0[process, default: [:]] }.sorted { $0.key.rawValue < $1.key.rawValue }
  }
}
