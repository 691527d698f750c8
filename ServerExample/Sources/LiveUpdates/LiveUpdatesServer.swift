import Broadcasters
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import PostgresNIO

extension StatisticsSnapshot: ResponseEncodable {}

/// Builds a server process: `GET /topics/:name` upgrades to a WebSocket that receives the topic's events,
/// `POST /topics/:name` NOTIFYs an event to every process, `GET /stats` returns the process's counters.
public func makeLiveUpdatesServer(_ options: ServerOptions, logger: Logger) -> some ApplicationProtocol {
  let statistics = ServerStatistics(design: options.design.rawValue, process: options.process)
  let topics = SharedTopics(
    process: options.process, postgres: options.postgres, statistics: statistics, logger: logger)
  let notifier = PostgresClient(
    configuration: notifyConfiguration(options), backgroundLogger: logger)

  let router = Router(context: BasicWebSocketRequestContext.self)
  router.post("/topics/:name") { request, context -> HTTPResponse.Status in
    guard let topic = TopicName(context.parameters.get("name") ?? "") else { throw HTTPError(.notFound) }
    let body = try await request.body.collect(upTo: TopicEvent.maximumPayloadSize)
    let event: TopicEvent
    do {
      event = try TopicEvent(json: body.readableBytesView)
    } catch {
      throw HTTPError(.badRequest, message: "\(error)")
    }
    try await notifier.query("SELECT pg_notify(\(topic.channel), \(event.json))", logger: context.logger)
    statistics.update { $0.notifies += 1 }
    return .accepted
  }
  router.get("/stats") { _, _ -> StatisticsSnapshot in
    var snapshot = statistics.snapshot
    snapshot.listeningTopics = topics.listeningTopicCount
    return snapshot
  }
  router.ws("/topics/:name") { _, context in
    TopicName(context.parameters.get("name") ?? "") == nil ? .dontUpgrade : .upgrade()
  } onUpgrade: { inbound, outbound, context in
    guard let topic = TopicName(context.requestContext.parameters.get("name") ?? "") else { return }
    statistics.update { $0.clients += 1 }
    defer { statistics.update { $0.clients -= 1 } }
    let client = WebSocketClientConnection(
      topic: topic, inbound: inbound, outbound: outbound, statistics: statistics, logger: context.logger)
    switch options.design {
    case .shared:
      try await client.serveShared(from: topics)
    case .perClient:
      let configuration = options.postgres.configuration(
        applicationName: "live-updates \(options.process) listen \(topic.channel) client")
      try await client.servePerClient(configuration: configuration)
    }
  }

  return Application(
    router: router,
    server: .http1WebSocketUpgrade(webSocketRouter: router),
    configuration: ApplicationConfiguration(
      address: .hostname(options.host, port: options.port), serverName: "live-updates", backlog: 2048),
    services: [notifier],
    onServerRunning: { channel in
      guard let path = options.portFile, let port = channel.localAddress?.port else { return }
      try? Data("\(port)\n".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    },
    logger: logger
  )
}

private func notifyConfiguration(_ options: ServerOptions) -> PostgresClient.Configuration {
  let postgres = options.postgres
  var configuration = PostgresClient.Configuration(
    host: postgres.host, port: postgres.port, username: postgres.username, password: postgres.password,
    database: postgres.database, tls: .disable)
  configuration.options.maximumConnections = options.notifyConnections
  // Opened at start and kept: a process whose clients exhaust PostgreSQL's connections can still NOTIFY.
  configuration.options.minimumConnections = options.notifyConnections
  configuration.options.additionalStartupParameters = [("application_name", "live-updates \(options.process) notify")]
  return configuration
}
