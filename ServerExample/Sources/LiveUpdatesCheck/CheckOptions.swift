import LiveUpdates

/// What the check runs against and how hard it pushes.
struct CheckOptions: Sendable {
  struct Server: Sendable {
    /// The process name the server was started with (its PostgreSQL `application_name`s carry it).
    var process: String
    var host: String
    var port: Int
  }

  var servers: [Server] = []
  var design = ServerOptions.Design.shared
  var clients = 300
  var topics = 3
  var events = 100
  /// The wait between two events of one topic.
  var interval = Duration.milliseconds(50)
  /// The superuser connection the check reads `pg_stat_activity` with (and NOTIFYs malformed payloads through).
  var postgres = PostgresSettings()
  /// How long after its last client leaves a process may keep a topic's LISTEN connection.
  var closeBound = Duration.seconds(2)

  static let usage = """
    usage: LiveUpdatesCheck --server NAME=HOST:PORT --server NAME=HOST:PORT [options]
      --design shared|per-client   the servers' design (shared)
      --clients N                  WebSocket clients, spread over the servers and topics (300)
      --topics N                   topics (3)
      --events N                   events POSTed per topic, per round (100)
      --interval-ms N              wait between two events of a topic (50)
      --close-bound-ms N           how soon LISTEN connections must close after the last client leaves (2000)
      --postgres-host ADDRESS --postgres-port N --postgres-user NAME --postgres-database NAME
                                   a superuser connection, to read pg_stat_activity
    """

  struct ArgumentError: Error, CustomStringConvertible {
    let description: String
  }

  static func parse(_ arguments: [String]) throws(ArgumentError) -> CheckOptions {
    var options = CheckOptions()
    var remaining = arguments[...]
    while let flag = remaining.popFirst() {
      guard let value = remaining.popFirst() else { throw ArgumentError(description: "\(flag) needs a value") }
      switch flag {
      case "--server": options.servers.append(try server(value))
      case "--design":
        guard let design = ServerOptions.Design(rawValue: value) else {
          throw ArgumentError(description: "--design is shared or per-client, not \(value)")
        }
        options.design = design
      case "--clients": options.clients = try positive(value, for: flag)
      case "--topics": options.topics = try positive(value, for: flag)
      case "--events": options.events = try positive(value, for: flag)
      case "--interval-ms": options.interval = .milliseconds(try positive(value, for: flag, allowingZero: true))
      case "--close-bound-ms": options.closeBound = .milliseconds(try positive(value, for: flag))
      case "--postgres-host": options.postgres.host = value
      case "--postgres-port": options.postgres.port = try positive(value, for: flag)
      case "--postgres-user": options.postgres.username = value
      case "--postgres-database": options.postgres.database = value
      default: throw ArgumentError(description: "unknown option \(flag)")
      }
    }
    guard !options.servers.isEmpty else { throw ArgumentError(description: "no --server given") }
    return options
  }

  private static func server(_ text: String) throws(ArgumentError) -> Server {
    let parts = text.split(separator: "=", maxSplits: 1)
    guard parts.count == 2, let colon = parts[1].lastIndex(of: ":"),
      let port = Int(parts[1][parts[1].index(after: colon)...])
    else { throw ArgumentError(description: "--server takes NAME=HOST:PORT, not \(text)") }
    return Server(process: String(parts[0]), host: String(parts[1][..<colon]), port: port)
  }

  private static func positive(_ text: String, for flag: String, allowingZero: Bool = false) throws(ArgumentError)
    -> Int
  {
    guard let value = Int(text), value > 0 || (allowingZero && value == 0) else {
      throw ArgumentError(description: "\(flag) takes a positive integer, not \(text)")
    }
    return value
  }
}
