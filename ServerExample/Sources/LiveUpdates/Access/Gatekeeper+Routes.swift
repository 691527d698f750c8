import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

/// The routes of access itself: `OPTIONS /topics/:name` (preflight), `GET /topics/:name` without an upgrade (the
/// reason an upgrade was refused), `GET /metrics` (operator claim).
///
/// `levels` gives the gauges' values at each scrape.
func addGatekeeperRoutes(
  to router: Router<LiveUpdatesRequestContext>, _ gatekeeper: Gatekeeper,
  levels: @escaping @Sendable () -> ServerMetrics.Levels
) {
  router.on("/topics/:name", method: .options) { request, _ -> Response in
    gatekeeper.origins.preflightResponse(to: request)
  }
  // Reached by a GET that was not upgraded: the gate refused it, and says why, or it asked for no upgrade.
  router.get("/topics/:name") { request, context -> Response in
    guard let topic = TopicName(context.parameters.get("name") ?? "") else { throw HTTPError(.notFound) }
    if let refusal = Refusal(carriedBy: request) { throw refusal }
    _ = try await gatekeeper.admitSubscription(request, to: topic, from: context.remoteAddress)
    throw Refusal(.badRequest, "GET /topics/\(topic) is a WebSocket upgrade")
  }
  router.get("/metrics") { request, _ -> Response in
    _ = try await gatekeeper.access.authorizeOperator(request)
    gatekeeper.metrics.update(levels())
    return Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: gatekeeper.metrics.exposition)))
  }
}

/// Says at start-up, as loudly as a log can, that nothing is checked.
func warnOfDevelopmentMode(_ logger: Logger) {
  let warning =
    "DEVELOPMENT MODE WITHOUT TOKENS: anyone who reaches this port may subscribe, publish and read the "
    + "counters. Never run it this way where others can connect."
  logger.critical("\(warning)")
  FileHandle.standardError.write(Data("\n*** \(warning) ***\n\n".utf8))
}
