import Hummingbird
import Logging

/// Admits or refuses each request before it reaches a topic or the counters: origin, media type, token and claims.
/// Refusals are thrown as ``Refusal``s; ``RefusalMiddleware`` counts them (and every other 4xx) and logs them.
public final class Gatekeeper: Sendable {
  public let access: AccessControl
  public let origins: OriginPolicy
  public let metrics: ServerMetrics

  public init(_ settings: AccessSettings, metrics: ServerMetrics) {
    access = AccessControl(settings)
    origins = OriginPolicy(allowing: settings.allowedOrigins)
    self.metrics = metrics
  }

  /// A WebSocket upgrade to `topic`: from an allowed origin (or none), with a token that may subscribe to it.
  public func admitSubscription(_ request: Request, to topic: TopicName) async throws(Refusal) -> AccessClaims {
    try origins.check(request)
    return try await access.authorizeSubscription(request, to: topic)
  }

  /// Whether an upgrade request (to `/topics/:name`) is admitted; one that is not goes on as a plain `GET`, whose route
  /// answers why.
  public func admitsUpgrade(_ request: Request) async -> Bool {
    let prefix = "/topics/"
    guard request.uri.path.hasPrefix(prefix), let topic = TopicName(request.uri.path.dropFirst(prefix.count)) else {
      return false
    }
    return (try? await admitSubscription(request, to: topic)) != nil
  }

  /// A POST to `topic`: from an allowed origin (or none), JSON, with a token that may publish to it.
  public func admitPublishing(_ request: Request, to topic: TopicName) async throws(Refusal) -> AccessClaims {
    try origins.check(request)
    guard Self.isJSON(request.headers[.contentType]) else {
      throw Refusal(.unsupportedMediaType, "POST takes application/json")
    }
    return try await access.authorizePublishing(request, to: topic)
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
