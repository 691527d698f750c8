import Logging
import PostgresNIO

/// The events table: every event a POST acknowledged, with a per-topic id whose order is the commit order.
///
/// ```sql
/// topic_counters(topic text PRIMARY KEY, last_id bigint)       -- the last id given out per topic
/// events(topic text, id bigint, payload text, created_at timestamptz, PRIMARY KEY (topic, id))
/// ```
///
/// An append takes the topic's counter row in its transaction (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), so a
/// second append to the topic waits for the first to commit: ids are given out, and become visible, in order, with no
/// gap. A reader that has seen id 10 has seen 1 to 9. NOTIFY, in the same transaction, carries the id only.
/// Retention deletes the oldest ids of a topic; it never leaves a hole in the middle.
public struct EventStore: Sendable {
  /// One stored event.
  public struct Row: Sendable, Hashable {
    public var id: Int
    public var payload: String
  }

  /// How long history is kept: the newest `count` events of each topic, none older than `age`.
  public struct Retention: Sendable, Hashable {
    public var age: Duration
    public var count: Int

    public init(age: Duration, count: Int) {
      self.age = age
      self.count = count
    }
  }

  public let client: PostgresClient
  public let logger: Logger
  /// How long any one operation may take before it fails with ``DeadlinePassed``. PostgresNIO can leave a query
  /// unanswered for good when it is sent on a pooled connection that PostgreSQL has just closed (a restart, a stop):
  /// the request goes nowhere and nothing fails it. Without a deadline, the caller (a topic's feed, a client catching
  /// up) would wait for it forever.
  public let deadline: Duration

  public init(client: PostgresClient, logger: Logger, deadline: Duration = .seconds(5)) {
    self.client = client
    self.logger = logger
    self.deadline = deadline
  }

  /// Creates the tables if they do not exist. Processes starting together take turns (an advisory lock): two
  /// concurrent `CREATE TABLE IF NOT EXISTS` can both try to create.
  public func createSchema() async throws {
    try await withDeadline(deadline) { try await createTables() }
  }

  private func createTables() async throws {
    try await client.withTransaction(logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(7226)", logger: logger)
      try await connection.query(
        "CREATE TABLE IF NOT EXISTS topic_counters (topic text PRIMARY KEY, last_id bigint NOT NULL)", logger: logger)
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS events (
          topic text NOT NULL, id bigint NOT NULL, payload text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (topic, id))
        """, logger: logger)
      try await connection.query(
        "CREATE INDEX IF NOT EXISTS events_created_at ON events (created_at)", logger: logger)
    }
  }

  /// Stores `payload` as the next event of `topic` and, with `notify`, NOTIFYs its id on the topic's channel in the
  /// same transaction. Returns the id once the transaction has committed.
  ///
  /// One statement inside `BEGIN … COMMIT`: the topic's counter row stays locked from the increment to the commit, one
  /// round trip later. The explicit `COMMIT` is what says the event is stored: rows come back before an implicit
  /// transaction commits.
  public func append(_ payload: String, to topic: TopicName, notify: Bool = true) async throws -> Int {
    let query: PostgresQuery =
      notify
      ? """
      WITH next AS (
        INSERT INTO topic_counters AS c (topic, last_id) VALUES (\(topic.rawValue), 1)
        ON CONFLICT (topic) DO UPDATE SET last_id = c.last_id + 1 RETURNING last_id),
      stored AS (
        INSERT INTO events (topic, id, payload) SELECT \(topic.rawValue), last_id, \(payload) FROM next RETURNING id)
      SELECT id::int, pg_notify(\(topic.channel), id::text)::text FROM stored
      """
      : """
      WITH next AS (
        INSERT INTO topic_counters AS c (topic, last_id) VALUES (\(topic.rawValue), 1)
        ON CONFLICT (topic) DO UPDATE SET last_id = c.last_id + 1 RETURNING last_id),
      stored AS (
        INSERT INTO events (topic, id, payload) SELECT \(topic.rawValue), last_id, \(payload) FROM next RETURNING id)
      SELECT id::int, ''::text FROM stored
      """
    let id = try await withDeadline(deadline) { [client, logger] in
      try await client.withTransaction(logger: logger) { connection in
        var id: Int?
        for try await (stored, _) in try await connection.query(query, logger: logger).decode((Int, String).self) {
          id = stored
        }
        return id
      }
    }
    guard let id else { throw AppendFailed() }
    return id
  }

  /// An append whose statement returned no id: nothing was stored.
  struct AppendFailed: Error, CustomStringConvertible {
    var description: String { "the event was not stored" }
  }

  /// The events of `topic` after `id`, up to `limit` of them, in id order.
  public func events(of topic: TopicName, after id: Int, through last: Int = .max, limit: Int = 1000) async throws
    -> [Row]
  {
    try await withDeadline(deadline) { [client, logger] in
      let rows = try await client.query(
        """
        SELECT id, payload FROM events WHERE topic = \(topic.rawValue) AND id > \(id) AND id <= \(last)
        ORDER BY id LIMIT \(limit)
        """, logger: logger)
      var result: [Row] = []
      for try await (id, payload) in rows.decode((Int, String).self) {
        result.append(Row(id: id, payload: payload))
      }
      return result
    }
  }

  /// The last id given out for `topic`; 0 before its first event.
  public func lastID(of topic: TopicName) async throws -> Int {
    try await withDeadline(deadline) { [client, logger] in
      let rows = try await client.query(
        "SELECT last_id FROM topic_counters WHERE topic = \(topic.rawValue)", logger: logger)
      for try await id in rows.decode(Int.self) { return id }
      return 0
    }
  }

  /// The oldest id of `topic` still kept, or `nil` if none is.
  public func oldestID(of topic: TopicName) async throws -> Int? {
    try await withDeadline(deadline) { [client, logger] in
      let rows = try await client.query(
        "SELECT min(id) FROM events WHERE topic = \(topic.rawValue)", logger: logger)
      for try await id in rows.decode(Int?.self) { return id }
      return nil
    }
  }

  /// Deletes what `retention` does not keep; returns how many events went.
  @discardableResult
  public func prune(_ retention: Retention) async throws -> Int {
    let seconds = Double(retention.age.components.seconds)
    return try await withDeadline(deadline) { [client, logger] in
      let rows = try await client.query(
        """
        WITH gone AS (
          DELETE FROM events e USING topic_counters c
          WHERE e.topic = c.topic
            AND (e.id <= c.last_id - \(retention.count) OR e.created_at < now() - make_interval(secs => \(seconds)))
          RETURNING 1)
        SELECT count(*)::int FROM gone
        """, logger: logger)
      for try await count in rows.decode(Int.self) { return count }
      return 0
    }
  }
}
