import Broadcasters
import Logging
import PostgresNIO
import Synchronization

private let listenConnectionIDs = Atomic<Int>(0)

/// What a topic's LISTEN delivers: a committed id, or the news that the LISTEN is (again) in place.
public enum TopicSignal: Sendable, Hashable {
  /// The topic's LISTEN is in place on a new session: ids committed before were not notified to this process.
  case listening
  /// The event with this id was committed.
  case committed(Int)
}

/// One PostgreSQL connection per process carrying every topic's LISTEN: the ``/Broadcasters/KeyedUpstream`` of the
/// server's ``/Broadcasters/KeyedSource``.
///
/// A topic is attached with `LISTEN "topic:<name>"` and detached with `UNLISTEN`. The NOTIFY payload is the event's id;
/// one that is not an integer is reported as a decode failure and delivered to nobody.
public struct ListenUpstream: KeyedUpstream {
  /// A live LISTEN connection and the notification handler of each attached topic.
  public final class Session: Sendable {
    let connection: PostgresConnection
    let listeners = Mutex<[TopicName: PostgresListenContext]>([:])

    init(connection: PostgresConnection) {
      self.connection = connection
    }
  }

  /// How long a `LISTEN` may take to be in place before the session is given up and opened again.
  static let deadline = Duration.seconds(5)

  let configuration: PostgresConnection.Configuration
  let statistics: ServerStatistics
  let logger: Logger

  public init(configuration: PostgresConnection.Configuration, statistics: ServerStatistics, logger: Logger) {
    self.configuration = configuration
    self.statistics = statistics
    self.logger = logger
  }

  public func openSession() async throws -> Session {
    let id = listenConnectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
    do {
      let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
      statistics.update { $0.listenConnections += 1 }
      return Session(connection: connection)
    } catch {
      statistics.update { $0.failedAttempts += 1 }
      throw error
    }
  }

  public func attach(_ topic: TopicName, to session: Session, emitting sink: EventSink<TopicSignal>) async throws {
    let channel = topic.channel
    let context = session.connection.addListener(channel: channel) { _, notification in
      guard let id = Int(notification.payload) else {
        sink.reportFailure(
          DecodeFailure(name: channel, reason: .other("payload \"\(notification.payload.prefix(40))\" is not an id")))
        return
      }
      sink.send(.committed(id))
    }
    session.listeners.withLock { $0[topic] = context }
    // The listener asks for the LISTEN itself; this one returns once it is in place (queries run in order). Within a
    // deadline: a query sent as the connection closes may never be answered, and the session then ends instead of
    // waiting for it.
    try await withDeadline(Self.deadline) { [connection = session.connection, logger] in
      _ = try await connection.query(PostgresQuery(unsafeSQL: #"LISTEN "\#(channel)""#), logger: logger)
    }
    sink.send(.listening)
  }

  public func detach(_ topic: TopicName, from session: Session) async throws {
    let context = session.listeners.withLock { $0.removeValue(forKey: topic) }
    // Stopping the last listener of the channel sends the UNLISTEN.
    context?.stop()
  }

  public func waitForEnd(of session: Session) async throws {
    try await session.connection.closeFuture.get()
  }

  public func closeSession(_ session: Session) async {
    // A connection PostgreSQL terminated is closed already; closing it again only reports that.
    try? await session.connection.close()
    statistics.update { $0.listenConnections -= 1 }
  }
}

extension PSQLError {
  /// PostgreSQL's own message when the server sent one (`sorry, too many clients already`), else the error's code.
  var serverMessage: String {
    serverInfo?[.message] ?? "\(code)"
  }
}

/// What to log and report about a failed connection: PostgreSQL's message if there is one.
func describe(_ error: any Error) -> String {
  (error as? PSQLError)?.serverMessage ?? "\(error)"
}
