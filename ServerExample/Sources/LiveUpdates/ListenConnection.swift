import Logging
import PostgresNIO
import Synchronization

private let connectionIDs = Atomic<Int>(0)

/// Opens a PostgreSQL connection for LISTEN, runs `body` with it, and closes it, whatever `body` does; the
/// connection counts in ``StatisticsSnapshot/listenConnections`` while it is open.
func withListenConnection<Result>(
  configuration: PostgresConnection.Configuration,
  statistics: ServerStatistics,
  logger: Logger,
  _ body: (PostgresConnection) async throws -> Result
) async throws -> Result {
  let id = connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
  let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
  statistics.update { $0.listenConnections += 1 }
  let result: Result
  do {
    result = try await body(connection)
  } catch {
    await close(connection, statistics: statistics)
    throw error
  }
  await close(connection, statistics: statistics)
  return result
}

private func close(_ connection: PostgresConnection, statistics: ServerStatistics) async {
  // A connection the server terminated is closed already; closing it again only reports that.
  try? await connection.close()
  statistics.update { $0.listenConnections -= 1 }
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
