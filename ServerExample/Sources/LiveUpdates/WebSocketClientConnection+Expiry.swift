import Foundation
import HummingbirdWebSocket

extension WebSocketClientConnection {
  /// Serves the client until it leaves or its token ends, whichever is first; at the token's end the socket is closed
  /// with 1008, "token expired": the client gets a new token and resumes with its last id.
  func serve(from feeds: TopicFeeds, until expiry: Date) async throws {
    let remaining = expiry.timeIntervalSinceNow
    guard remaining < Self.foreverSeconds else {
      try await serve(from: feeds)
      return
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await serve(from: feeds) }
      group.addTask { [outbound, logger, topic] in
        try await Task.sleep(for: .seconds(max(0, remaining)))
        logger.info("closing a client whose token expired", metadata: ["topic": "\(topic)"])
        try? await outbound.close(.policyViolation, reason: "token expired")
      }
      try await group.next()
      group.cancelAll()
    }
  }

  /// Longer than any token lives: development mode's claims, which never end.
  static let foreverSeconds: TimeInterval = 100 * 365 * 86_400
}
