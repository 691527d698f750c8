import Hummingbird
import Logging
import NIOCore

/// Admits or refuses each request before it reaches a topic or the counters: origin, media type, token and claims,
/// then the limits of the client (the token's subject; the remote address in development mode), which operators
/// (tokens with the `operator` claim: the process's own tools, load tests) are exempt from. Refusals are thrown as ``Refusal``s; ``RefusalMiddleware`` counts them (and every other 4xx) and logs them.
public final class Gatekeeper: Sendable {
  public let access: AccessControl
  public let origins: OriginPolicy
  public let metrics: ServerMetrics
  /// Open WebSockets per client.
  public let connections: ConnectionLimiter
  /// POSTs per client.
  public let publishing: RateLimiter
  /// The deadlines and buffers of each socket.
  public let limits: ServerLimits
  /// The clients open now, for the close that a shutdown sends them.
  public let clients: ClientRegistry

  public init(
    _ settings: AccessSettings, limits: ServerLimits = ServerLimits(), metrics: ServerMetrics,
    clients: ClientRegistry = ClientRegistry()
  ) {
    access = AccessControl(settings)
    origins = OriginPolicy(allowing: settings.allowedOrigins)
    connections = ConnectionLimiter(limit: limits.connectionsPerClient)
    publishing = RateLimiter(rate: limits.publishRate, burst: limits.publishBurst)
    self.limits = limits
    self.clients = clients
    self.metrics = metrics
  }

  /// Who the limits count a request against: the token's subject, or the remote address in development mode.
  public func client(of claims: AccessClaims, address: SocketAddress?) -> String {
    access.isDevelopmentMode ? "address \(address?.ipAddress ?? "unknown")" : "subject \(claims.sub.value)"
  }

  /// A WebSocket upgrade to `topic`, or the `GET` a refused one became: from an allowed origin (or none), with a token
  /// that may subscribe to it, from a client below its connection limit. The limit is looked at, not taken: only
  /// ``decideUpgrade(_:from:)`` takes a slot.
  public func admitSubscription(
    _ request: Request, to topic: TopicName, from address: SocketAddress?
  ) async throws(Refusal) -> AccessClaims {
    let claims = try await authorizeSubscription(request, to: topic)
    guard claims.operator || !connections.isFull(client(of: claims, address: address)) else {
      throw Self.tooManyConnections(limit: connections.limit)
    }
    return claims
  }

  /// The origin and the token of a subscription to `topic`, without the limits.
  public func authorizeSubscription(_ request: Request, to topic: TopicName) async throws(Refusal) -> AccessClaims {
    try origins.check(request)
    return try await access.authorizeSubscription(request, to: topic)
  }

  /// Decides an upgrade request (to `/topics/:name`), once: its origin, its token, its resume id (`400` if garbled),
  /// then its client's limit. Admitted, with the slot it takes among its client's
  /// connections (which the caller gives back with ``releaseSlot(_:)`` once the connection closes), or refused with
  /// the answer. Twenty upgrades racing for two free slots: two admitted, eighteen refused with 429.
  public func decideUpgrade(_ request: Request, from address: SocketAddress?) async -> UpgradeDecision {
    let prefix = "/topics/"
    guard request.uri.path.hasPrefix(prefix), let topic = TopicName(request.uri.path.dropFirst(prefix.count)) else {
      return .notASubscription
    }
    let claims: AccessClaims
    do {
      claims = try await authorizeSubscription(request, to: topic)
      _ = try resumePoint(of: request)
    } catch {
      return .refused(error)
    }
    if claims.operator { return .admitted(slot: nil) }
    let slot = client(of: claims, address: address)
    guard connections.acquire(slot) else { return .refused(Self.tooManyConnections(limit: connections.limit)) }
    return .admitted(slot: slot)
  }

  /// Gives back a slot that ``decideUpgrade(_:from:)`` took.
  @Sendable public func releaseSlot(_ slot: String) {
    connections.release(slot)
  }

  private static func tooManyConnections(limit: Int) -> Refusal {
    Refusal(.tooManyConnections, "at most \(limit) WebSockets at once per token", retryAfter: 1)
  }

  /// A POST to `topic`: from an allowed origin (or none), JSON, with a token that may publish to it, from a client
  /// within its rate.
  public func admitPublishing(
    _ request: Request, to topic: TopicName, from address: SocketAddress?
  ) async throws(Refusal) -> AccessClaims {
    try origins.check(request)
    guard Self.isJSON(request.headers[.contentType]) else {
      throw Refusal(.unsupportedMediaType, "POST takes application/json")
    }
    let claims = try await access.authorizePublishing(request, to: topic)
    if !claims.operator, let wait = publishing.take(client(of: claims, address: address)) {
      let seconds = Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18).rounded(.up))
      throw Refusal(
        .rateLimited, "at most \(Int(publishing.rate)) POSTs a second per token", retryAfter: max(1, seconds))
    }
    return claims
  }

  /// `application/json`, with parameters (`; charset=utf-8`) or without.
  public static func isJSON(_ contentType: String?) -> Bool {
    guard let contentType else { return false }
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
  }
}

/// Counts every request the router answers with a 4xx by its reason, logs it, and names a listed origin in
/// `Access-Control-Allow-Origin` so that its scripts can read the answer.
struct RefusalMiddleware<Context: RequestContext>: RouterMiddleware {
  let gatekeeper: Gatekeeper

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      var response = try await next(request, context)
      if (400..<500).contains(response.status.code) {
        refused(Refusal.Kind(status: response.status), "\(response.status)", request, context)
      }
      if let origin = gatekeeper.origins.listedOrigin(of: request) {
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
      }
      return response
    } catch let refusal as Refusal {
      refused(refusal.kind, refusal.reason, request, context)
      throw refusal
    } catch let error as any HTTPResponseError where (400..<500).contains(error.status.code) {
      refused(Refusal.Kind(status: error.status), "\(error)", request, context)
      throw error
    }
  }

  private func refused(_ kind: Refusal.Kind, _ reason: String, _ request: Request, _ context: Context) {
    gatekeeper.metrics.refused(kind)
    context.logger.info(
      "refused",
      metadata: [
        "refusal": "\(kind.rawValue)", "reason": "\(reason)", "method": "\(request.method)",
        "path": "\(request.uri.path)",
      ])
  }
}
