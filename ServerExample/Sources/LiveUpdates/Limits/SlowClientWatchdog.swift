import HummingbirdWebSocket
import NIOCore
import Synchronization

/// Whether a client was closed for being slow, by its watchdog or because its queue filled up: set before the socket
/// is closed, so that whatever fails on that socket afterwards (a write, the close frame) is not taken for another
/// cause, and the client is counted once, as a slow client.
public final class SlowClientMark: Sendable {
  private let marked = Mutex(false)

  public init() {}

  /// Notes that the client is being closed for being slow.
  public func mark() {
    marked.withLock { $0 = true }
  }

  /// Whether ``mark()`` was called.
  public var isMarked: Bool {
    marked.withLock { $0 }
  }
}

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
  /// Set before the watchdog closes the client.
  public let mark: SlowClientMark

  public init(
    socket: Socket, deadline: Duration, closeFrameTimeout: Duration = .seconds(1),
    mark: SlowClientMark = SlowClientMark()
  ) {
    self.socket = socket
    self.deadline = deadline
    self.closeFrameTimeout = closeFrameTimeout
    self.mark = mark
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
          mark.mark()
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
