import Foundation
import LiveUpdates
import Logging
import PostgresNIO

/// The servers' HTTP endpoints: `POST /topics/:name` on a connection the caller keeps, `GET /stats` on one of its own.
struct ServerAPI: Sendable {
  /// POSTs `event` to `topic` through `connection`; returns the HTTP status, and the stored id on a 201.
  func post(_ event: TopicEvent, to topic: TopicName, through connection: HTTPConnection) async throws
    -> (status: Int, id: Int?)
  {
    let response = try await connection.request(.POST, "/topics/\(topic)", body: event.json)
    let body = String(buffer: response.body)
    guard response.status == 201, body.hasPrefix(#"{"id":"#) else { return (response.status, nil) }
    return (response.status, Int(body.dropFirst(6).prefix { $0.isNumber }))
  }

  /// The counters of `server`.
  func statistics(of server: CheckOptions.Server) async throws -> StatisticsSnapshot {
    let connection = try await HTTPConnection.connect(host: server.host, port: server.port)
    let response: HTTPConnection.Response
    do {
      response = try await connection.request(.GET, "/stats")
    } catch {
      await connection.close()
      throw error
    }
    await connection.close()
    return try JSONDecoder().decode(StatisticsSnapshot.self, from: Data(response.body.readableBytesView))
  }
}

/// A superuser connection to the servers' PostgreSQL: what `pg_stat_activity` shows, and NOTIFYs by hand.
struct Database: Sendable {
  let connection: PostgresConnection
  let logger: Logger

  static func connect(_ settings: PostgresSettings, logger: Logger) async throws -> Database {
    let connection = try await PostgresConnection.connect(
      configuration: settings.configuration(applicationName: "server-example check"), id: 0, logger: logger)
    return Database(connection: connection, logger: logger)
  }

  /// Runs `body` on a new connection, closed afterwards: the check outlives PostgreSQL restarts.
  static func with<Result>(
    _ settings: PostgresSettings, logger: Logger, _ body: (Database) async throws -> Result
  ) async throws -> Result {
    let database = try await connect(settings, logger: logger)
    do {
      let result = try await body(database)
      try? await database.connection.close()
      return result
    } catch {
      try? await database.connection.close()
      throw error
    }
  }

  /// The LISTEN connections of the servers, by `application_name`: `live-updates <process> listen`.
  func listenConnections() async throws -> [String: Int] {
    let rows = try await connection.query(
      """
      SELECT application_name, count(*)::int FROM pg_stat_activity
      WHERE application_name LIKE 'live-updates % listen' GROUP BY application_name
      """, logger: logger)
    var counts: [String: Int] = [:]
    for try await (name, count) in rows.decode((String, Int).self) {
      counts[name] = count
    }
    return counts
  }

  /// The last id of every topic.
  func lastIDs() async throws -> [String: Int] {
    let rows = try await connection.query("SELECT topic, last_id::int FROM topic_counters", logger: logger)
    var ids: [String: Int] = [:]
    for try await (topic, id) in rows.decode((String, Int).self) {
      ids[topic] = id
    }
    return ids
  }

  /// The oldest id of `topic` still kept, 0 if none is.
  func oldestID(of topic: TopicName) async throws -> Int {
    try await integer("SELECT coalesce(min(id), 0)::int FROM events WHERE topic = \(topic.rawValue)")
  }

  /// The stored payload of each id of `topic`.
  func payloads(of topic: TopicName) async throws -> [Int: String] {
    let rows = try await connection.query(
      "SELECT id::int, payload FROM events WHERE topic = \(topic.rawValue)", logger: logger)
    var payloads: [Int: String] = [:]
    for try await (id, payload) in rows.decode((Int, String).self) {
      payloads[id] = payload
    }
    return payloads
  }

  /// Every connection the servers hold: LISTEN and NOTIFY.
  func serverConnections() async throws -> Int {
    try await integer("SELECT count(*)::int FROM pg_stat_activity WHERE application_name LIKE 'live-updates %'")
  }

  /// How many connections a role without superuser rights may hold.
  func connectionLimitForUsers() async throws -> (maxConnections: Int, limit: Int) {
    let maximum = try await integer("SELECT current_setting('max_connections')::int")
    let reserved = try await integer(
      """
      SELECT current_setting('superuser_reserved_connections')::int
        + coalesce(current_setting('reserved_connections', true)::int, 0)
      """)
    return (maximum, maximum - reserved)
  }

  /// NOTIFYs `payload` on `channel` as is, bypassing the servers' validation.
  func notify(_ channel: String, payload: String) async throws {
    try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
  }

  /// Terminates the backends whose `application_name` is `name`; returns how many.
  /// (The servers' LISTEN connections are `live-updates <process> listen`.)
  func terminate(applicationName name: String) async throws -> Int {
    try await integer(
      "SELECT count(*)::int FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)) AS ended"
    )
  }

  private func integer(_ query: PostgresQuery) async throws -> Int {
    let rows = try await connection.query(query, logger: logger)
    for try await value in rows.decode(Int.self) {
      return value
    }
    return 0
  }
}
