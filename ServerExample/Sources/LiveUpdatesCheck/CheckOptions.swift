import LiveUpdates

/// What the check runs against and how hard it pushes.
struct CheckOptions: Sendable {
  struct Server: Sendable, Hashable {
    /// The process name the server was started with (its PostgreSQL `application_name`s carry it).
    var process: String
    var host: String
    var port: Int
  }

  var servers: [Server] = []
  var clients = 300
  var topics = 3
  /// Events POSTed per topic in the steady round.
  var events = 100
  /// Concurrent publishers.
  var publishers = 32
  /// Events a client catches up from the table in one go, timed.
  var catchUp = 2_000
  /// Events per topic the servers keep (their `--retention-count`).
  var retentionCount = 1_000
  /// The superuser connection the check reads `pg_stat_activity` with (and NOTIFYs malformed payloads through).
  var postgres = PostgresSettings()
  /// How long after its last client leaves a process may keep its LISTEN connection.
  var closeBound = Duration.seconds(2)
  /// The faults to run, with the commands that cause them; `nil` without `--faults`.
  var faults: Faults?
  /// Runs the adversarial round (``AdversarialCheck``) instead of the others.
  var adversarial = false
  /// The servers' process ids, by name, for their resident memory.
  var serverPIDs: [String: Int] = [:]
  /// Short-lived topics the adversarial round opens, and how many at once.
  var adversarialTopics = 20_000
  var topicConcurrency = 64
  /// WebSockets that never read, and the events they are flooded with.
  var slowClients = 100
  var floodEvents = 150
  /// The servers' `--slow-client-deadline-ms`.
  var slowClientDeadline = Duration.seconds(10)
  /// POSTs at once with one token, past the rate limit.
  var ratePosts = 80
  /// Connections that send half a request head, and the servers' `--request-head-timeout-ms`.
  var slowlorisConnections = 1_000
  var requestHeadTimeout = Duration.seconds(10)
  /// The servers' `--max-connections-per-client`, and the upgrades that race for its last two slots.
  var connectionsPerClient = 64
  var racingUpgrades = 20
  /// Short WebSocket sessions in a row, and the most resident memory each may leave behind, in bytes.
  var churnSessions = 5_000
  var rssGrowthBound = 2_048

  /// Shell commands that act on the cluster and the servers, given by the script that started them.
  struct Faults: Sendable {
    var restartPostgres = ""
    var stopPostgres = ""
    var startPostgres = ""
    /// Kills this server process (SIGKILL): its clients reconnect to another with their last id.
    var killServer = ""
    var killedServer = ""
    /// How long PostgreSQL stays stopped.
    var outage = Duration.seconds(20)
  }

  static let usage = """
    usage: LiveUpdatesCheck --server NAME=HOST:PORT --server NAME=HOST:PORT [options]
      --clients N                  WebSocket clients, spread over the servers and topics (300)
      --topics N                   topics (3)
      --events N                   events POSTed per topic in the steady round (100)
      --publishers N               concurrent publishers (32)
      --catch-up N                 events one client catches up from the table, timed (2000)
      --retention-count N          the servers' --retention-count (1000)
      --close-bound-ms N           how soon the LISTEN connection must close after the last client leaves (2000)
      --postgres-host ADDRESS --postgres-port N --postgres-user NAME --postgres-database NAME
                                   a superuser connection, to read pg_stat_activity and the events table
      --faults                     also run the faults, with these commands:
      --restart-postgres CMD --stop-postgres CMD --start-postgres CMD
      --kill-server NAME=CMD       kills server NAME
      --outage-seconds N           how long PostgreSQL stays stopped (20)
      --adversarial                run the adversarial round instead: refused requests, a burst past the rate
                                   limit, short-lived topics, WebSockets that never read
      --server-pid NAME=PID        the process id of server NAME, for its resident memory
      --adversarial-topics N       short-lived topics (20000)
      --topic-concurrency N        of them at once (64)
      --slow-clients N             WebSockets that never read (100)
      --flood-events N             events of 4 kB their topic is flooded with (150)
      --slow-client-deadline-ms N  the servers' --slow-client-deadline-ms (10000)
      --rate-posts N               POSTs at once with one token (80)
      --slowloris N                connections that send half a request head and nothing more (1000)
      --request-head-timeout-ms N  the servers' --request-head-timeout-ms (10000)
      --max-connections-per-client N
                                   the servers' --max-connections-per-client (64)
      --racing-upgrades N          upgrades at once for the last two slots of one token (20)
      --sessions N                 short WebSocket sessions in a row, to one topic (5000)
      --rss-growth-bound-bytes N   the most resident memory a session may leave behind (2048)
    """

  struct ArgumentError: Error, CustomStringConvertible {
    let description: String
  }

  static func parse(_ arguments: [String]) throws(ArgumentError) -> CheckOptions {
    var options = CheckOptions()
    var faults = Faults()
    var runsFaults = false
    var remaining = arguments[...]
    while let flag = remaining.popFirst() {
      if flag == "--faults" {
        runsFaults = true
        continue
      }
      if flag == "--adversarial" {
        options.adversarial = true
        continue
      }
      guard let value = remaining.popFirst() else { throw ArgumentError(description: "\(flag) needs a value") }
      switch flag {
      case "--server": options.servers.append(try server(value))
      case "--clients": options.clients = try positive(value, for: flag)
      case "--topics": options.topics = try positive(value, for: flag)
      case "--events": options.events = try positive(value, for: flag)
      case "--publishers": options.publishers = try positive(value, for: flag)
      case "--catch-up": options.catchUp = try positive(value, for: flag)
      case "--retention-count": options.retentionCount = try positive(value, for: flag)
      case "--close-bound-ms": options.closeBound = .milliseconds(try positive(value, for: flag))
      case "--postgres-host": options.postgres.host = value
      case "--postgres-port": options.postgres.port = try positive(value, for: flag)
      case "--postgres-user": options.postgres.username = value
      case "--postgres-database": options.postgres.database = value
      case "--restart-postgres": faults.restartPostgres = value
      case "--stop-postgres": faults.stopPostgres = value
      case "--start-postgres": faults.startPostgres = value
      case "--outage-seconds": faults.outage = .seconds(try positive(value, for: flag))
      case "--server-pid":
        let parts = value.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let pid = Int(parts[1]) else {
          throw ArgumentError(description: "--server-pid takes NAME=PID")
        }
        options.serverPIDs[String(parts[0])] = pid
      case "--adversarial-topics": options.adversarialTopics = try positive(value, for: flag)
      case "--topic-concurrency": options.topicConcurrency = try positive(value, for: flag)
      case "--slow-clients": options.slowClients = try positive(value, for: flag)
      case "--flood-events": options.floodEvents = try positive(value, for: flag)
      case "--slow-client-deadline-ms": options.slowClientDeadline = .milliseconds(try positive(value, for: flag))
      case "--rate-posts": options.ratePosts = try positive(value, for: flag)
      case "--slowloris": options.slowlorisConnections = try positive(value, for: flag)
      case "--request-head-timeout-ms": options.requestHeadTimeout = .milliseconds(try positive(value, for: flag))
      case "--max-connections-per-client": options.connectionsPerClient = try positive(value, for: flag)
      case "--racing-upgrades": options.racingUpgrades = try positive(value, for: flag)
      case "--sessions": options.churnSessions = try positive(value, for: flag)
      case "--rss-growth-bound-bytes": options.rssGrowthBound = try positive(value, for: flag)
      case "--kill-server":
        let parts = value.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { throw ArgumentError(description: "--kill-server takes NAME=COMMAND") }
        faults.killedServer = String(parts[0])
        faults.killServer = String(parts[1])
      default: throw ArgumentError(description: "unknown option \(flag)")
      }
    }
    guard !options.servers.isEmpty else { throw ArgumentError(description: "no --server given") }
    if runsFaults {
      guard !faults.restartPostgres.isEmpty, !faults.stopPostgres.isEmpty, !faults.startPostgres.isEmpty,
        !faults.killServer.isEmpty, options.servers.count >= 2
      else {
        throw ArgumentError(
          description: "--faults needs --restart-postgres, --stop-postgres, --start-postgres, --kill-server and two "
            + "servers")
      }
      options.faults = faults
    }
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
