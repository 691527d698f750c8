import Foundation
import HTTPTypes
import Hummingbird

/// A request the server turns down: its status, a reason a client can act on, and the name it is counted under in
/// `/metrics` (`live_updates_refusals_total{reason="…"}`).
///
/// The body is JSON: `{"error":"forbidden","reason":"the token does not allow subscribing to news"}`.
public struct Refusal: HTTPResponseError, Equatable, CustomStringConvertible {
  /// Why requests are refused, as counted.
  public enum Kind: String, Sendable, CaseIterable {
    case unauthorized
    case forbidden
    case crossOrigin = "cross_origin"
    case unsupportedMediaType = "unsupported_media_type"
    case rateLimited = "rate_limited"
    case tooManyConnections = "too_many_connections"
    case tooLarge = "too_large"
    case badRequest = "bad_request"
    case notFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    case otherClientError = "other_client_error"

    /// The kind a 4xx status from elsewhere (Hummingbird's own errors) is counted under.
    public init(status: HTTPResponse.Status) {
      switch status.code {
      case 400: self = .badRequest
      case 401: self = .unauthorized
      case 403: self = .forbidden
      case 404: self = .notFound
      case 405: self = .methodNotAllowed
      case 413: self = .tooLarge
      case 415: self = .unsupportedMediaType
      case 429: self = .rateLimited
      default: self = .otherClientError
      }
    }

    var status: HTTPResponse.Status {
      switch self {
      case .unauthorized: .unauthorized
      case .forbidden, .crossOrigin: .forbidden
      case .unsupportedMediaType: .unsupportedMediaType
      case .rateLimited, .tooManyConnections: .tooManyRequests
      case .tooLarge: .contentTooLarge
      case .badRequest: .badRequest
      case .notFound: .notFound
      case .methodNotAllowed: .methodNotAllowed
      case .otherClientError: .badRequest
      }
    }
  }

  public let kind: Kind
  public let reason: String
  /// Seconds after which a retry may succeed (`Retry-After`), for rate limits.
  public let retryAfter: Int?

  public init(_ kind: Kind, _ reason: String, retryAfter: Int? = nil) {
    self.kind = kind
    self.reason = reason
    self.retryAfter = retryAfter
  }

  public var status: HTTPResponse.Status { kind.status }

  /// The header that carries the gate's refusal of an upgrade to the route that answers it: set by the gate only,
  /// which removes it from every request it did not set it on.
  static let carriedHeader = "live-updates-refusal"

  /// The refusal as ``carriedHeader`` carries it: `kind retry-after reason`, 0 for no `Retry-After`.
  var carried: String { "\(kind.rawValue) \(retryAfter ?? 0) \(reason)" }

  /// The refusal a request carries in ``carriedHeader``; `nil` if it carries none.
  init?(carriedBy request: Request) {
    guard let name = HTTPField.Name(Self.carriedHeader), let text = request.headers[name] else { return nil }
    let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let kind = Kind(rawValue: String(parts[0])), let seconds = Int(parts[1]) else {
      return nil
    }
    self.init(kind, String(parts[2]), retryAfter: seconds > 0 ? seconds : nil)
  }

  public var description: String { "\(kind.rawValue): \(reason)" }

  /// The JSON body: `error` (the kind) and `reason`.
  public var json: String {
    let body = ["error": kind.rawValue, "reason": reason]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // A dictionary of strings always encodes.
    return String(decoding: try! encoder.encode(body), as: UTF8.self)
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let retryAfter { headers[.retryAfter] = "\(retryAfter)" }
    if kind == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
  }
}
