import Foundation
import HTTPTypes
import JWTKit
import LiveUpdates
import Synchronization

/// The tokens the check uses, minted with the key it gave the servers (the `LIVE_UPDATES_TOKEN_KEY` environment
/// variable of both): one for its own clients, publishers and counter reads, and any the adversarial round forges.
enum CheckToken {
  private static let current = Mutex<String?>(nil)

  /// The token every request of the check carries, once ``install(key:)`` has run: every topic, the counters.
  static var bearer: String? { current.withLock { $0 } }

  /// The `Authorization` header of ``bearer``, for WebSocket clients.
  static var headers: HTTPFields {
    guard let bearer else { return [:] }
    return [.authorization: "Bearer \(bearer)"]
  }

  /// Mints the check's own token with `key`, valid for a day, and makes it ``bearer``.
  static func install(key: String) async throws {
    let token = try await mint(
      key: key,
      AccessClaims(
        subject: "check", expiration: ExpirationClaim(value: Date(timeIntervalSinceNow: 86_400)), subscribe: ["*"],
        publish: ["*"], operator: true))
    current.withLock { $0 = token }
  }

  /// An HS256 token with `claims`, signed with `key`.
  static func mint(key: String, _ claims: AccessClaims) async throws -> String {
    let keys = JWTKeyCollection()
    await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
    return try await keys.sign(claims)
  }
}
