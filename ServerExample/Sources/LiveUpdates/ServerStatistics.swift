import Synchronization

/// The counters a server process exposes at `GET /stats`, as JSON.
public struct StatisticsSnapshot: Codable, Sendable, Hashable {
  /// `shared` (one LISTEN connection per topic) or `per-client` (one per WebSocket client).
  public var design: String
  /// The process's name, as in its PostgreSQL `application_name`s.
  public var process: String
  /// WebSocket clients connected now.
  public var clients = 0
  /// PostgreSQL connections open now for LISTEN.
  public var listenConnections = 0
  /// Topics whose LISTEN is in place now (shared design).
  public var listeningTopics = 0
  /// Event frames written to clients.
  public var deliveries = 0
  /// NOTIFY payloads that did not decode: logged, counted, delivered to nobody.
  public var decodeFailures = 0
  /// LISTEN connections lost while clients remained: each one a gap in which NOTIFYs were missed.
  public var connectionLosses = 0
  /// LISTEN connections made again after a loss.
  public var reconnects = 0
  /// LISTEN connection attempts that failed.
  public var failedAttempts = 0
  /// Clients closed because PostgreSQL refused their LISTEN connection (per-client design).
  public var refusedClients = 0
  /// Clients closed because they read too slowly and their queue filled up.
  public var slowClientsClosed = 0
  /// Events POSTed and NOTIFY'd by this process.
  public var notifies = 0

  /// Creates a snapshot with every count at zero.
  public init(design: String, process: String) {
    self.design = design
    self.process = process
  }
}

/// The live counters of a process, safe to update from any task.
public final class ServerStatistics: Sendable {
  private let counters: Mutex<StatisticsSnapshot>

  /// Creates counters at zero for a process of the given design.
  public init(design: String, process: String) {
    counters = Mutex(StatisticsSnapshot(design: design, process: process))
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
