import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

@testable import LiveUpdates

/// The server's HTTP layer on a free port of 127.0.0.1, without PostgreSQL: the gate, the connection guard, the
/// routes of access and the real upgrade route, with tokens signed with ``AccessControlTests/key``. A subscription
/// it admits is told `subscribed` and held until the client closes; a POST's body is collected as the real route
/// collects it.
struct TestServer {
  let port: Int
  let gatekeeper: Gatekeeper

  /// - Parameter onSession: Called with each admitted subscription's context, before it is told `subscribed`.
  static func with<Result: Sendable>(
    limits: ServerLimits = ServerLimits(),
    onSession: @escaping @Sendable (WebSocketRouterContext<LiveUpdatesRequestContext>) -> Void = { _ in },
    _ body: (TestServer) async throws -> Result
  ) async throws -> Result {
    var settings = AccessSettings()
    settings.key = AccessControlTests.key
    let gatekeeper = Gatekeeper(settings, limits: limits, metrics: ServerMetrics())
    let router = Router(context: LiveUpdatesRequestContext.self)
    router.add(middleware: RefusalMiddleware(gatekeeper: gatekeeper))
    addGatekeeperRoutes(to: router, gatekeeper) { ServerMetrics.Levels() }
    router.post("/topics/:name") { request, _ -> Response in
      _ = try await request.body.collect(upTo: TopicEvent.maximumPayloadSize)
      return Response(status: .created)
    }
    let webSocketRouter = Router(context: LiveUpdatesRequestContext.self)
    addSubscriptionRoute(to: webSocketRouter, gatekeeper) { subscription, inbound, outbound, context in
      onSession(context)
      try await outbound.write(.text(#"{"kind":"subscribed","after":\#(subscription.resumeAfter ?? -1)}"#))
      for try await _ in inbound {}
    }
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "test-server")
    logger.logLevel = .critical
    let application = Application(
      router: router, server: .liveUpdates(webSocketRouter: webSocketRouter, gatekeeper: gatekeeper),
      configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
    let running = Task { try await application.runService(gracefulShutdownSignals: []) }
    defer { running.cancel() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else { throw CancellationError() }
    return try await body(TestServer(port: port, gatekeeper: gatekeeper))
  }

  func connect() async throws -> RawConnection {
    try await RawConnection.connect(port: port)
  }

  /// A WebSocket upgrade request to `path`, with a token of the subject `tester` that may subscribe to every topic.
  static func upgrade(_ path: String, headers: [String] = []) async throws -> String {
    let token = try await AccessControlTests.token(subscribe: ["*"])
    let lines = [
      "GET \(path) HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13", "Authorization: Bearer \(token)",
    ]
    return (lines + headers).joined(separator: "\r\n") + "\r\n\r\n"
  }

  /// The value of `name` in `/metrics`, for the series whose labels contain `labels`.
  func metric(_ name: String, _ labels: String = "") -> Double {
    for line in gatekeeper.metrics.exposition.split(separator: "\n") where line.hasPrefix(name) {
      guard line.contains(labels), let value = line.split(separator: " ").last.flatMap({ Double($0) }) else {
        continue
      }
      return value
    }
    return 0
  }
}
