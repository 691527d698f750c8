/// How a server process runs: its address, its PostgreSQL, its history.
public struct ServerOptions: Sendable {
  public var host = "127.0.0.1"
  public var port = 8080
  /// The process's name in logs and in its PostgreSQL `application_name`s.
  public var process = "server"
  public var postgres = PostgresSettings()
  /// Where to write the port once the server listens (useful with `--port 0`).
  public var portFile: String?
  /// The most PostgreSQL connections for writes and reads (the LISTEN connection is apart).
  public var poolConnections = 8
  /// How long a POST may wait for its event to be stored (a pool connection, then the commit) before it is answered
  /// 503: 1.5 s, so that the answer leaves within the 2 s promised with room to spare on a loaded machine, where
  /// the request waits to be read and the answer to be written.
  public var postDeadline = Duration.milliseconds(1500)
  /// How much history is kept, per topic.
  public var retention = EventStore.Retention(age: .seconds(3600), count: 10_000)
  /// Tokens and origins.
  public var access = AccessSettings()
  /// Topics, connections and publishing.
  public var limits = ServerLimits()

  public init() {}

  public static let usage = """
    usage: LiveUpdatesServer [options]
      --host ADDRESS          address to listen on (127.0.0.1)
      --port N                port to listen on, 0 for any free one (8080)
      --port-file PATH        write the port there once listening
      --process NAME          this process's name in logs and pg_stat_activity (server)
      --postgres-host ADDRESS (127.0.0.1)
      --postgres-port N       (5432)
      --postgres-user NAME    (postgres)
      --postgres-password TEXT
      --postgres-database NAME
      --pool-connections N    PostgreSQL connections for writes and reads (8)
      --post-deadline-ms N    a POST not stored within this is answered 503 (1500)
      --retention-count N     events kept per topic (10000)
      --retention-seconds N   how long events are kept (3600)
    """ + "\n" + accessUsage + "\n" + ServerLimits.usage

  /// A command-line argument that is missing, unknown or malformed.
  public struct ArgumentError: Error, CustomStringConvertible {
    public let description: String
  }

  /// Parses command-line arguments (without the program's name).
  public static func parse(_ arguments: [String]) throws(ArgumentError) -> ServerOptions {
    var options = ServerOptions()
    var remaining = arguments[...]
    while let flag = remaining.popFirst() {
      if flag == "--development-mode-without-tokens" {
        options.access.developmentMode = true
        continue
      }
      guard let value = remaining.popFirst() else { throw ArgumentError(description: "\(flag) needs a value") }
      switch flag {
      case "--host": options.host = value
      case "--port": options.port = try integer(value, for: flag)
      case "--port-file": options.portFile = value
      case "--process": options.process = value
      case "--postgres-host": options.postgres.host = value
      case "--postgres-port": options.postgres.port = try integer(value, for: flag)
      case "--postgres-user": options.postgres.username = value
      case "--postgres-password": options.postgres.password = value
      case "--postgres-database": options.postgres.database = value
      case "--pool-connections": options.poolConnections = max(1, try integer(value, for: flag))
      case "--post-deadline-ms": options.postDeadline = .milliseconds(max(1, try integer(value, for: flag)))
      case "--retention-count": options.retention.count = max(1, try integer(value, for: flag))
      case "--retention-seconds": options.retention.age = .seconds(max(1, try integer(value, for: flag)))
      default: try options.parseAccessOption(flag, value)
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
