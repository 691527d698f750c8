/// How a server process runs: its address, its design, its PostgreSQL.
public struct ServerOptions: Sendable {
  /// How a process listens for a topic's events.
  public enum Design: String, Sendable {
    /// One LISTEN connection per topic in use, shared by every client of the topic through a broadcaster.
    case shared
    /// One LISTEN connection per WebSocket client, each decoding every payload itself: the design that does not scale.
    case perClient = "per-client"
  }

  public var host = "127.0.0.1"
  public var port = 8080
  /// The process's name in logs and in its PostgreSQL `application_name`s.
  public var process = "server"
  public var design = Design.shared
  public var postgres = PostgresSettings()
  /// Where to write the port once the server listens (useful with `--port 0`).
  public var portFile: String?
  /// The most PostgreSQL connections for NOTIFY; they are opened at start and kept.
  public var notifyConnections = 2

  public init() {}

  public static let usage = """
    usage: LiveUpdatesServer [options]
      --host ADDRESS          address to listen on (127.0.0.1)
      --port N                port to listen on, 0 for any free one (8080)
      --port-file PATH        write the port there once listening
      --process NAME          this process's name in logs and pg_stat_activity (server)
      --design shared|per-client
                              one LISTEN connection per topic (shared, the default) or per client
      --postgres-host ADDRESS (127.0.0.1)
      --postgres-port N       (5432)
      --postgres-user NAME    (postgres)
      --postgres-password TEXT
      --postgres-database NAME
      --notify-connections N  PostgreSQL connections for NOTIFY (2)
    """

  /// A command-line argument that is missing, unknown or malformed.
  public struct ArgumentError: Error, CustomStringConvertible {
    public let description: String
  }

  /// Parses command-line arguments (without the program's name).
  public static func parse(_ arguments: [String]) throws(ArgumentError) -> ServerOptions {
    var options = ServerOptions()
    var remaining = arguments[...]
    while let flag = remaining.popFirst() {
      guard let value = remaining.popFirst() else { throw ArgumentError(description: "\(flag) needs a value") }
      switch flag {
      case "--host": options.host = value
      case "--port": options.port = try integer(value, for: flag)
      case "--port-file": options.portFile = value
      case "--process": options.process = value
      case "--design":
        guard let design = Design(rawValue: value) else {
          throw ArgumentError(description: "--design is shared or per-client, not \(value)")
        }
        options.design = design
      case "--postgres-host": options.postgres.host = value
      case "--postgres-port": options.postgres.port = try integer(value, for: flag)
      case "--postgres-user": options.postgres.username = value
      case "--postgres-password": options.postgres.password = value
      case "--postgres-database": options.postgres.database = value
      case "--notify-connections": options.notifyConnections = max(1, try integer(value, for: flag))
      default: throw ArgumentError(description: "unknown option \(flag)")
      }
    }
    return options
  }

  private static func integer(_ text: String, for flag: String) throws(ArgumentError) -> Int {
    guard let value = Int(text), value >= 0 else {
      throw ArgumentError(description: "\(flag) takes a non-negative integer, not \(text)")
    }
    return value
  }
}
