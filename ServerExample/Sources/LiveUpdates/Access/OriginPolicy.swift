import Hummingbird

/// The origins a browser may write from: a WebSocket upgrade or a POST that carries an `Origin` is refused unless
/// the origin is listed; one without `Origin` (curl, a server, a native app) passes, since only browsers send it and
/// only browsers are made to write cross-site.
public struct OriginPolicy: Sendable {
  private let allowed: Set<String>

  /// Creates the policy; origins compare without case and without a trailing `/`.
  public init(allowing origins: [String]) {
    allowed = Set(origins.map(Self.normalized))
  }

  /// Whether a request with this `Origin` (or none) may write.
  public func allows(_ origin: String?) -> Bool {
    guard let origin else { return true }
    return allowed.contains(Self.normalized(origin))
  }

  /// The request's `Origin`, if the policy allows it and it is present: the one CORS headers name.
  public func listedOrigin(of request: Request) -> String? {
    guard let origin = request.headers[.origin], allowed.contains(Self.normalized(origin)) else { return nil }
    return origin
  }

  /// - Throws: `Refusal` `.crossOrigin` if the request comes from an origin not listed.
  public func check(_ request: Request) throws(Refusal) {
    let origin = request.headers[.origin]
    guard allows(origin) else { throw Refusal(.crossOrigin, "origin \(origin ?? "") is not allowed") }
  }

  /// The answer to `OPTIONS`: `204` with `Allow`, and for a listed origin the CORS headers that let its scripts POST
  /// JSON with a token.
  public func preflightResponse(to request: Request) -> Response {
    var headers: HTTPFields = [.allow: Self.methods]
    if let origin = listedOrigin(of: request) {
      headers[.accessControlAllowOrigin] = origin
      headers[.accessControlAllowMethods] = Self.methods
      headers[.accessControlAllowHeaders] = "Authorization, Content-Type, Last-Event-ID"
      headers[.accessControlMaxAge] = "600"
    }
    headers[.vary] = "Origin"
    return Response(status: .noContent, headers: headers)
  }

  static let methods = "GET, POST, OPTIONS"

  private static func normalized(_ origin: String) -> String {
    var text = origin.lowercased()
    while text.hasSuffix("/") { text.removeLast() }
    return text
  }
}
