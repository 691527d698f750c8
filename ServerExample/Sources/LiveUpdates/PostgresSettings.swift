import PostgresNIO

/// Where the server's PostgreSQL is, and how each of its connections is named in `pg_stat_activity`.
public struct PostgresSettings: Sendable {
  public var host = "127.0.0.1"
  public var port = 5432
  public var username = "postgres"
  public var password: String?
  public var database: String?

  public init() {}

  /// A connection configuration whose `application_name` is `name`, so that `pg_stat_activity` tells the
  /// connections apart: `live-updates <process> listen`, `live-updates <process> pool`.
  public func configuration(applicationName name: String) -> PostgresConnection.Configuration {
    var configuration = PostgresConnection.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: .disable)
    configuration.options.additionalStartupParameters = [("application_name", name)]
    configuration.options.connectTimeout = .seconds(5)
    return configuration
  }
}
