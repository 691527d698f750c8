import HummingbirdWebSocket
import NIOCore

/// Closes a client whose socket does not drain: its channel stays unwritable (the kernel's send buffer, capped by
/// `SO_SNDBUF`, and NIO's own are full) for longer than the deadline, whether it ever reads again or not. A client
/// that reads too slowly to keep up fills its queue instead (``TopicSubscriber/queueLimit``) and is closed once the
/// queue is written, which this bounds too.
public struct SlowClientWatchdog: Sendable {
  /// The socket: whether it is open and takes writes now, and how to end it.
  public struct Socket: Sendable {
    public var isActive: @Sendable () -> Bool
    public var isWritable: @Sendable () -> Bool
    /// Sends the close frame (1008, "too slow"); may never return on a socket that does not drain.
    public var sendCloseFrame: @Sendable () async -> Void
    /// Closes the connection, failing whatever is still queued.
    public var close: @Sendable () async -> Void

    public init(
      isActive: @escaping @Sendable () -> Bool, isWritable: @escaping @Sendable () -> Bool,
      sendCloseFrame: @escaping @Sendable () async -> Void, close: @escaping @Sendable () async -> Void
    ) {
      self.isActive = isActive
      self.isWritable = isWritable
      self.sendCloseFrame = sendCloseFrame
      self.close = close
    }
  }

  public let socket: Socket
  public let deadline: Duration
  /// How long the close frame may take before the connection is closed without it.
  public let closeFrameTimeout: Duration

  public init(socket: Socket, deadline: Duration, closeFrameTimeout: Duration = .seconds(1)) {
    self.socket = socket
    self.deadline = deadline
    self.closeFrameTimeout = closeFrameTimeout
  }

  /// How often writability is looked at: a client is closed between `deadline` and `deadline` + this.
  public var period: Duration { min(deadline / 4, .milliseconds(250)) }

  /// Returns `true` once it closed the client for being slow, `false` when the socket closed otherwise; throws
  /// `CancellationError` when cancelled.
  public func watch() async throws -> Bool {
    let clock = ContinuousClock()
    var stalledSince: ContinuousClock.Instant?
    while socket.isActive() {
      try await Task.sleep(for: period)
      if socket.isWritable() {
        stalledSince = nil
      } else if let since = stalledSince {
        if since.duration(to: clock.now) >= deadline {
          await closeSlowClient()
          return true
        }
      } else {
        stalledSince = clock.now
      }
    }
    return false
  }

  private func closeSlowClient() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { [socket] in await socket.sendCloseFrame() }
      group.addTask { [closeFrameTimeout] in try? await Task.sleep(for: closeFrameTimeout) }
      await group.next()
      // Ends a close frame still waiting for room, too.
      await socket.close()
      group.cancelAll()
    }
  }
}

extension SlowClientWatchdog.Socket {
  /// The WebSocket on `channel`.
  init(channel: any Channel, outbound: WebSocketOutboundWriter) {
    self.init(
      isActive: { channel.isActive }, isWritable: { channel.isWritable },
      sendCloseFrame: { try? await outbound.close(.policyViolation, reason: "too slow") },
      close: { try? await channel.close(mode: .all) })
  }
}
