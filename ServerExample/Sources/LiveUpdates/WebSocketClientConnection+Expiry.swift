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
        try await Self.sleep(until: ContinuousClock.now + .seconds(max(0, remaining)))
        logger.info("closing a client whose token expired", metadata: ["topic": "\(topic)"])
        try? await outbound.close(.policyViolation, reason: "token expired")
      }
      try await group.next()
      group.cancelAll()
    }
  }

  /// Longer than any token lives: development mode's claims, which never end.
  static let foreverSeconds: TimeInterval = 100 * 365 * 86_400

  /// The longest single sleep of the wait for a token's end.
  static let sleepStep = Duration.seconds(1)

  /// Sleeps until `deadline`, a step of at most ``sleepStep`` at a time; throws `CancellationError` when cancelled.
  ///
  /// Not one sleep to the end: a cancelled `Task.sleep` leaves its timer, and what it holds, in the runtime until its
  /// deadline, and a token lasts hours. Each session that ended before its token then left memory behind for that
  /// long.
  static func sleep(until deadline: ContinuousClock.Instant) async throws {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return }
      try await Task.sleep(for: min(left, sleepStep))
    }
  }
}
