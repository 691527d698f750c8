/// A reconnecting source's sessions, decided under its lock: which session is current, whether it connected, what
/// its end means (a loss or a failed attempt), and how long to wait before the next one.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
struct ReconnectStateMachine: Sendable {
  private(set) var statistics = ReconnectStatistics()
  /// The current session's number; 0 before the first.
  private var session = 0
  /// A connected session was lost and no session has connected since: the next connection closes a gap.
  private var lostSinceConnected = false
  /// Sessions in a row that ended before connecting.
  private var failures = 0

  /// The broadcaster connected the source: whatever happened before, its new subscribers were not there for it.
  mutating func start() {
    lostSinceConnected = false
    failures = 0
  }

  /// A session begins. Returns its number, and whether it follows a loss.
  mutating func beginSession() -> (number: Int, followsLoss: Bool) {
    session += 1
    return (session, lostSinceConnected)
  }

  /// Session `number` reports that it connected. Returns the change to report, or `nil` if the session is no longer
  /// current or had already connected.
  mutating func connected(session number: Int) -> UpstreamChange? {
    guard number == session, !statistics.isConnected else { return nil }
    statistics.isConnected = true
    statistics.connectCount += 1
    failures = 0
    let afterLoss = lostSinceConnected
    if afterLoss {
      statistics.reconnectCount += 1
      lostSinceConnected = false
    }
    return .connected(afterLoss: afterLoss)
  }

  /// The current session ended, having thrown `error` or returned. Returns the change to report, whose delay is the
  /// wait before the next session, or `nil` when the source is being stopped (`stopped`), which is neither a loss nor
  /// a failure.
  mutating func sessionEnded(
    error: (any Error)?,
    stopped: Bool,
    backoff: ReconnectBackoff,
    randomFraction: Double
  ) -> UpstreamChange? {
    let wasConnected = statistics.isConnected
    statistics.isConnected = false
    session += 1  // a late `connected` from the session that ended changes nothing
    guard !stopped else { return nil }
    if wasConnected {
      statistics.lossCount += 1
      lostSinceConnected = true
      failures = 0
      return .lost(error: error, retryingIn: backoff.delay(afterFailures: 0, randomFraction: randomFraction))
    }
    statistics.failedAttemptCount += 1
    failures += 1
    return .attemptFailed(
      error: error, retryingIn: backoff.delay(afterFailures: failures, randomFraction: randomFraction))
  }
}
