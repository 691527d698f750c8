/// What a ``KeyedSource`` has been through: its sessions, the losses among them, and its attaches and detaches.
///
/// Read it from the source: `source.statistics`.
public struct KeyedSourceStatistics: Sendable, Hashable {
  /// Whether a session is open and every key that has subscribers is attached to it.
  public var isConnected = false
  /// Sessions open now: 0 or 1.
  public var openSessions = 0
  /// Keys attached to the live session now.
  public var attachedKeys = 0
  /// How many sessions reached the connected state.
  public var connectCount = 0
  /// How many connected sessions were lost while keys had subscribers: each one a gap in every key's events.
  public var lossCount = 0
  /// How many connections followed a loss.
  public var reconnectCount = 0
  /// How many sessions failed before they connected (the upstream could not be reached, or an attach failed).
  public var failedAttemptCount = 0
  /// How many times a key was attached, over every session.
  public var attachCount = 0
  /// How many times a key was detached from a live session. A key of a session that ended is not detached.
  public var detachCount = 0

  /// Creates statistics with every count at zero.
  public init() {}
}
