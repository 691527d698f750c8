import Synchronization

/// The counters a server process exposes at `GET /stats`, as JSON.
public struct StatisticsSnapshot: Codable, Sendable, Hashable {
  /// The process's name, as in its PostgreSQL `application_name`s.
  public var process: String
  /// WebSocket clients connected now.
  public var clients = 0
  /// PostgreSQL connections open now for LISTEN: 0 or 1, whatever the number of topics.
  public var listenConnections = 0
  /// Topics whose LISTEN is in place now.
  public var listeningTopics = 0
  /// Event and control frames written to clients.
  public var deliveries = 0
  /// Events written to clients from the table (catching up after a resume, a gap or a reconnect).
  public var caughtUpEvents = 0
  /// `reset` frames written: a client asked for events no longer kept.
  public var resets = 0
  /// NOTIFY payloads that were not an id: logged, counted, delivered to nobody.
  public var decodeFailures = 0
  /// LISTEN connections lost while topics had clients.
  public var connectionLosses = 0
  /// LISTEN connections made again after a loss.
  public var reconnects = 0
  /// LISTEN connection attempts that failed.
  public var failedAttempts = 0
  /// Clients closed because they read too slowly and their queue filled up.
  public var slowClientsClosed = 0
  /// Clients closed because PostgreSQL could not be read; they resume with their last id.
  public var clientsClosedUnavailable = 0
  /// Events stored (201).
  public var posts = 0
  /// POSTs answered 503: PostgreSQL could not store the event in time.
  public var refusedPosts = 0
  /// Events deleted by retention.
  public var prunedEvents = 0

  /// Creates a snapshot with every count at zero.
  public init(process: String) {
    self.process = process
  }
}

/// The live counters of a process, safe to update from any task.
public final class ServerStatistics: Sendable {
  private let counters: Mutex<StatisticsSnapshot>

  /// Creates counters at zero.
  public init(process: String) {
    counters = Mutex(StatisticsSnapshot(process: process))
  }

  /// Applies `change` to the counters.
  public func update(_ change: (inout StatisticsSnapshot) -> Void) {
    counters.withLock { change(&$0) }
  }

  /// The counters now.
  public var snapshot: StatisticsSnapshot {
    counters.withLock { $0 }
  }
}
