/// What a ``ReconnectingSource`` has been through: its connections, the losses among them, and failed attempts.
///
/// Read it from the source: `source.statistics`. Each loss is a gap in the event stream. What the upstream sent
/// between the loss and the next connection never arrived, and a source cannot tell how much that was: LISTEN/NOTIFY,
/// Redis pub/sub and core NATS keep nothing for a subscriber that was away.
public struct ReconnectStatistics: Sendable, Hashable {
  /// Whether a session is connected now.
  public var isConnected = false
  /// How many sessions connected.
  public var connectCount = 0
  /// How many connected sessions ended while the source still had subscribers: each one a gap in the events.
  public var lossCount = 0
  /// How many connections followed a loss.
  public var reconnectCount = 0
  /// How many sessions ended before they connected.
  public var failedAttemptCount = 0

  /// Creates statistics with every count at zero.
  public init() {}
}
