/// A change in a ``ReconnectingSource``'s upstream connection, for logs and metrics.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public enum UpstreamChange: Sendable, CustomStringConvertible {
  /// A session connected; `afterLoss` when it closes a gap left by a lost connection.
  case connected(afterLoss: Bool)
  /// A connected session ended, with `error` or by returning, while the source still had subscribers. Events sent
  /// from now until the next connection are lost.
  case lost(error: (any Error)?, retryingIn: Duration)
  /// A session ended before it connected.
  case attemptFailed(error: (any Error)?, retryingIn: Duration)

  /// How long the source waits before the next session; `nil` after a connection.
  public var retryDelay: Duration? {
    switch self {
    case .connected: nil
    case .lost(_, let delay), .attemptFailed(_, let delay): delay
    }
  }

  /// One line for a log: `connection lost (reason); reconnecting in 0.1 seconds`.
  public var description: String {
    switch self {
    case .connected(let afterLoss):
      afterLoss ? "connected again; events sent while disconnected were missed" : "connected"
    case .lost(let error, let delay):
      "connection lost\(Self.reason(error)); reconnecting in \(delay)"
    case .attemptFailed(let error, let delay):
      "connection attempt failed\(Self.reason(error)); retrying in \(delay)"
    }
  }

  private static func reason(_ error: (any Error)?) -> String {
    error.map { " (\($0))" } ?? ""
  }
}
