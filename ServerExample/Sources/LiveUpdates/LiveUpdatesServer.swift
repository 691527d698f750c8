import Broadcasters
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import PostgresNIO
import Synchronization

extension StatisticsSnapshot: ResponseEncodable {}

/// Builds a server process: `POST /topics/:name` stores an event and answers `201` with its id once committed,
/// `GET /topics/:name` upgrades to a WebSocket that receives the topic's events (after `?last_id=N` or a
/// `Last-Event-ID: N` header, to resume), `GET /stats` returns the process's counters. Every request but `OPTIONS`
/// needs a token whose claims allow it (see ``Gatekeeper``), unless the options ask for development mode.
///
/// `clients` holds the open WebSockets, for a ``GoingAwayService`` that closes them first on shutdown.
public func makeLiveUpdatesServer(
  _ options: ServerOptions, logger: Logger, clients: ClientRegistry = ClientRegistry()
) -> some ApplicationProtocol {
  let statistics = ServerStatistics(process: options.process)
  let pool = PostgresClient(configuration: poolConfiguration(options), backgroundLogger: logger)
  let store = EventStore(client: pool, logger: logger)
  let metrics = ServerMetrics()
  let feeds = TopicFeeds(
    process: options.process, postgres: options.postgres, store: store, statistics: statistics, logger: logger,
    limit: options.limits.topics, onEviction: metrics.evicted)

  let gatekeeper = Gatekeeper(options.access, limits: options.limits, metrics: metrics, clients: clients)
  if gatekeeper.access.isDevelopmentMode { warnOfDevelopmentMode(logger) }

  let router = Router(context: LiveUpdatesRequestContext.self)
  router.add(middleware: RefusalMiddleware(gatekeeper: gatekeeper))
  addGatekeeperRoutes(to: router, gatekeeper) {
    var levels = ServerMetrics.Levels()
    let snapshot = statistics.snapshot
    levels.clients = snapshot.clients
    levels.listenConnections = snapshot.listenConnections
    levels.topics = feeds.topicCount
    levels.listeningTopics = feeds.listenStatistics.attachedKeys
    return levels
  }
  router.post("/topics/:name") { request, context -> Response in
    guard let topic = TopicName(context.parameters.get("name") ?? "") else { throw HTTPError(.notFound) }
    _ = try await gatekeeper.admitPublishing(request, to: topic, from: context.remoteAddress)
    let body = try await request.body.collect(upTo: TopicEvent.maximumPayloadSize)
    let event: TopicEvent
    do {
      event = try TopicEvent(json: body.readableBytesView)
    } catch {
      throw HTTPError(.badRequest, message: "\(error)")
    }
    let id: Int
    do {
      id = try await withDeadline(options.postDeadline) { try await store.append(event.json, to: topic) }
    } catch {
      // Not stored, or not known to be: never a 2xx. A client that retries an event whose commit was merely late
      // stores it twice; events carry their own ids for that reason.
      statistics.update { $0.refusedPosts += 1 }
      context.logger.warning("POST to \(topic) refused: \(describe(error))")
      return Response(
        status: .serviceUnavailable, headers: [.retryAfter: "1"],
        body: .init(byteBuffer: ByteBuffer(string: ControlFrame.unavailable(describe(error)))))
    }
    statistics.update { $0.posts += 1 }
    return Response(
      status: .created, headers: [.contentType: "application/json", .location: "/topics/\(topic)?last_id=\(id - 1)"],
      body: .init(byteBuffer: ByteBuffer(string: #"{"id":\#(id)}"#)))
  }
  router.get("/stats") { request, _ -> StatisticsSnapshot in
    _ = try await gatekeeper.access.authorizeOperator(request)
    var snapshot = statistics.snapshot
    snapshot.listeningTopics = feeds.listenStatistics.attachedKeys
    return snapshot
  }
  // Upgrades have a router of their own: one that the gate refused falls through to `router`, whose
  // `GET /topics/:name` answers why (400, 401, 403, 429) and counts it.
  let webSocketRouter = Router(context: LiveUpdatesRequestContext.self)
  addSubscriptionRoute(to: webSocketRouter, gatekeeper) { subscription, inbound, outbound, context in
    statistics.update { $0.clients += 1 }
    defer { statistics.update { $0.clients -= 1 } }
    let client = WebSocketClientConnection(
      topic: subscription.topic, resumeAfter: subscription.resumeAfter, inbound: inbound, outbound: outbound,
      store: store, statistics: statistics, logger: context.logger,
      progress: DeliveryProgress(onWrite: metrics.delivered))
    try await gatekeeper.serve(client, from: feeds, claims: subscription.claims, context: context.requestContext)
  }

  return Application(
    router: router,
    server: .liveUpdates(webSocketRouter: webSocketRouter, gatekeeper: gatekeeper),
    configuration: ApplicationConfiguration(
      address: .hostname(options.host, port: options.port), serverName: "live-updates", backlog: 2048),
    services: [pool],
    onServerRunning: { channel in
      // The tables before the port file: whoever waits for the port finds a server that can store events.
      while (try? await store.createSchema()) == nil {
        logger.warning("cannot create the events table yet; trying again")
        try? await Task.sleep(for: .milliseconds(500))
      }
      Task { await keepHistoryBounded(store, options.retention, statistics: statistics, logger: logger) }
      guard let path = options.portFile, let port = channel.localAddress?.port else { return }
      try? Data("\(port)\n".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    },
    logger: logger
  )
}

/// An upgrade the gate admitted: its topic, its token's claims, and the id it resumes after.
struct AdmittedSubscription: Sendable {
  let topic: TopicName
  let claims: AccessClaims
  let resumeAfter: Int?
}

/// The upgrade route, `GET /topics/:name` with `Upgrade: websocket`, whose gate in front decided the upgrade, once,
/// and holds its slot until the connection closes (``Gatekeeper/decideUpgrade(_:from:)``): nothing here refuses it
/// again. `serve` serves the admitted subscription until it ends.
func addSubscriptionRoute(
  to webSocketRouter: Router<LiveUpdatesRequestContext>, _ gatekeeper: Gatekeeper,
  serve:
    @escaping @Sendable (
      AdmittedSubscription, WebSocketInboundStream, WebSocketOutboundWriter,
      WebSocketRouterContext<LiveUpdatesRequestContext>
    ) async throws -> Void
) {
  webSocketRouter.ws("/topics/:name") { _, context in
    guard TopicName(context.parameters.get("name") ?? "") != nil else { return .dontUpgrade }
    context.releaseWebSocketHandlerOnClose()
    return .upgrade()
  } onUpgrade: { inbound, outbound, context in
    guard let topic = TopicName(context.requestContext.parameters.get("name") ?? "") else { return }
    let claims: AccessClaims
    do throws(Refusal) {
      // For its claims: the gate checked the token, and only its expiry can have passed since.
      claims = try await gatekeeper.authorizeSubscription(context.request, to: topic)
    } catch {
      try? await outbound.close(.policyViolation, reason: error.reason)
      return
    }
    let resumeAfter = (try? resumePoint(of: context.request)) ?? nil
    try await serve(
      AdmittedSubscription(topic: topic, claims: claims, resumeAfter: resumeAfter), inbound, outbound, context)
  }
}

extension HTTPServerBuilder {
  /// The server's HTTP/1.1: WebSocket upgrades through `webSocketRouter`, decided by `gatekeeper`'s gate, and every
  /// connection within `gatekeeper.limits` until it is upgraded.
  static func liveUpdates<Responder: HTTPResponderBuilder & _HB_SendableMetatype>(
    webSocketRouter: Responder, gatekeeper: Gatekeeper
  ) -> HTTPServerBuilder where Responder.Responder.Context: WebSocketRequestContext {
    .gatedWebSocketUpgrade(
      webSocketRouter: webSocketRouter, connectionLimits: gatekeeper.limits.connection, metrics: gatekeeper.metrics,
      decide: { head, address in
        await gatekeeper.decideUpgrade(Request(head: head, body: .init(buffer: ByteBuffer())), from: address)
      }, release: gatekeeper.releaseSlot)
  }
}

/// The id a client resumes after: `?last_id=N`, else a `Last-Event-ID: N` header, else `nil`. A value that is not a
/// non-negative integer is refused (400): a client that sends a garbled id believes it is resuming.
func resumePoint(of request: Request) throws(Refusal) -> Int? {
  if let text = request.uri.queryParameters.get("last_id") {
    return try resumeID(text, from: "last_id")
  }
  if let field = request.headers.first(where: { $0.name.canonicalName == "last-event-id" }) {
    return try resumeID(field.value, from: "Last-Event-ID")
  }
  return nil
}

private func resumeID(_ text: some StringProtocol, from source: String) throws(Refusal) -> Int {
  guard let id = Int(text), id >= 0 else {
    let shown = text.count > 40 ? "\(text.prefix(40))…" : String(text)
    throw Refusal(.badRequest, "\(source) must be a non-negative integer that fits 64 bits, not \"\(shown)\"")
  }
  return id
}

/// Deletes what retention does not keep, every few seconds, for as long as the process runs.
private func keepHistoryBounded(
  _ store: EventStore, _ retention: EventStore.Retention, statistics: ServerStatistics, logger: Logger
) async {
  while !Task.isCancelled {
    do {
      let pruned = try await store.prune(retention)
      statistics.update { $0.prunedEvents += pruned }
    } catch {
      logger.debug("retention skipped: \(describe(error))")
    }
    try? await Task.sleep(for: .seconds(5))
  }
}

/// What a POST that PostgreSQL did not answer in time is refused with.
struct DeadlinePassed: Error, CustomStringConvertible {
  var description: String { "PostgreSQL did not answer in time" }
}

/// The result of `operation`, or an error once `deadline` has passed without one. The operation is cancelled then,
/// and may still finish; the caller does not wait for it.
///
/// The timer is cancelled as soon as the operation ends: left to sleep out its deadline, it held the operation's task
/// (its stack, its task-local values and its result) for that long after every query, thousands of them on a server
/// that many clients connect to.
func withDeadline<Result: Sendable>(
  _ deadline: Duration, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
  let waiter = OnceContinuation<Result>()
  let work = Task { try await operation() }
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      waiter.set(continuation)
      let timer = Task {
        guard (try? await Task.sleep(for: deadline)) != nil, let waiting = waiter.take() else { return }
        work.cancel()
        waiting.resume(throwing: DeadlinePassed())
      }
      Task {
        let result = await work.result
        timer.cancel()
        waiter.take()?.resume(with: result)
      }
    }
  } onCancel: {
    work.cancel()
  }
}

/// A continuation that whoever comes first takes and resumes; later takers get `nil`.
private final class OnceContinuation<Result: Sendable>: Sendable {
  private let continuation = Mutex<CheckedContinuation<Result, any Error>?>(nil)

  func set(_ continuation: CheckedContinuation<Result, any Error>) {
    self.continuation.withLock { $0 = continuation }
  }

  func take() -> CheckedContinuation<Result, any Error>? {
    continuation.withLock { value in
      defer { value = nil }
      return value
    }
  }
}

private func poolConfiguration(_ options: ServerOptions) -> PostgresClient.Configuration {
  let postgres = options.postgres
  var configuration = PostgresClient.Configuration(
    host: postgres.host, port: postgres.port, username: postgres.username, password: postgres.password,
    database: postgres.database, tls: .disable)
  configuration.options.maximumConnections = options.poolConnections
  configuration.options.minimumConnections = 1
  configuration.options.connectTimeout = .seconds(1)
  configuration.options.additionalStartupParameters = [("application_name", "live-updates \(options.process) pool")]
  return configuration
}
