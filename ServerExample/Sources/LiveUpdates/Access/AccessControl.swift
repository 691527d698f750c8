import Foundation
import Hummingbird
import JWTKit

/// Who may do what: verifies the HS256 token of a request with the server's key and checks its claims against what
/// the request asks for.
///
/// The token travels in `Authorization: Bearer <token>`. A WebSocket upgrade may carry it in a `token` query parameter
/// instead (`/topics/news?token=…`), because a browser's `WebSocket` cannot set headers; a POST may not, so that
/// tokens stay out of the URLs that forms and links can make.
///
/// In development mode (``AccessSettings/developmentMode``) no token is asked for and everything is allowed.
public final class AccessControl: Sendable {
  private let keys: Task<JWTKeyCollection, Never>?

  /// Creates the access control of a process; `nil` keys only in development mode.
  public init(_ settings: AccessSettings) {
    if let key = settings.key, !settings.developmentMode {
      keys = Task {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
        return keys
      }
    } else {
      keys = nil
    }
  }

  /// Whether requests pass without a token.
  public var isDevelopmentMode: Bool { keys == nil }

  /// The verified claims of the request's token.
  ///
  /// - Throws: `Refusal` `.unauthorized`: no token, a token not signed with the key, malformed or expired.
  public func authenticate(_ request: Request, allowingQueryToken: Bool) async throws(Refusal) -> AccessClaims {
    guard let keys else { return Self.developmentClaims }
    guard let token = Self.token(of: request, allowingQuery: allowingQueryToken) else {
      let places =
        allowingQueryToken
        ? "an Authorization: Bearer header or a token query parameter" : "an Authorization: Bearer header"
      throw Refusal(.unauthorized, "a token is required, in \(places)")
    }
    do {
      return try await keys.value.verify(token, as: AccessClaims.self)
    } catch let error as JWTError where error.errorType == .claimVerificationFailure {
      throw Refusal(.unauthorized, "token expired")
    } catch {
      throw Refusal(.unauthorized, "invalid token")
    }
  }

  /// The claims of a request that subscribes to `topic` (a WebSocket upgrade).
  ///
  /// - Throws: `Refusal` `.unauthorized` (see ``authenticate(_:allowingQueryToken:)``), `.forbidden` if the claims do
  ///   not allow subscribing to `topic`.
  public func authorizeSubscription(_ request: Request, to topic: TopicName) async throws(Refusal) -> AccessClaims {
    let claims = try await authenticate(request, allowingQueryToken: true)
    guard claims.maySubscribe(to: topic) else {
      throw Refusal(.forbidden, "the token does not allow subscribing to \(topic)")
    }
    return claims
  }

  /// The claims of a request that publishes to `topic` (a POST).
  public func authorizePublishing(_ request: Request, to topic: TopicName) async throws(Refusal) -> AccessClaims {
    let claims = try await authenticate(request, allowingQueryToken: false)
    guard claims.mayPublish(to: topic) else {
      throw Refusal(.forbidden, "the token does not allow publishing to \(topic)")
    }
    return claims
  }

  /// The claims of a request for the process's counters (`/stats`, `/metrics`).
  public func authorizeOperator(_ request: Request) async throws(Refusal) -> AccessClaims {
    let claims = try await authenticate(request, allowingQueryToken: false)
    guard claims.operator else { throw Refusal(.forbidden, "the token has no operator claim") }
    return claims
  }

  /// What development mode allows: everything, for ever, to one subject.
  static let developmentClaims = AccessClaims(
    subject: "development", expiration: ExpirationClaim(value: .distantFuture), subscribe: ["*"], publish: ["*"],
    operator: true)

  private static func token(of request: Request, allowingQuery: Bool) -> String? {
    if let field = request.headers[.authorization] {
      let parts = field.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
      return parts[1].trimmingCharacters(in: .whitespaces)
    }
    if allowingQuery, let token = request.uri.queryParameters.get("token") {
      return token
    }
    return nil
  }
}

/// How a process checks access: its token key, or development mode; the origins its WebSocket upgrades may come from.
public struct AccessSettings: Sendable {
  /// The HS256 key tokens are signed with: from `--token-key-file PATH`, else the `LIVE_UPDATES_TOKEN_KEY`
  /// environment variable.
  public var key: String?
  /// No tokens at all: set only by `--development-mode-without-tokens`, and said loudly at start-up.
  public var developmentMode = false
  /// The origins (`https://app.example.com`) a browser's WebSocket upgrade may come from; a request without `Origin`
  /// (not from a browser) is allowed.
  public var allowedOrigins: [String] = []

  /// The environment variable the key is read from.
  public static let keyVariable = "LIVE_UPDATES_TOKEN_KEY"

  public init() {}
}
