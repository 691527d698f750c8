import LiveUpdates
import Synchronization
import Testing

@Suite struct SlowClientWatchdogTests {
  /// A socket whose writability the test sets; it records how it was closed.
  final class FakeSocket: Sendable {
    let state = Mutex((active: true, writable: true, closeFrames: 0, closed: false))
    /// Whether the close frame gets through (a socket that does not drain never takes it).
    let closeFrameReturns: Bool

    init(closeFrameReturns: Bool) {
      self.closeFrameReturns = closeFrameReturns
    }

    var socket: SlowClientWatchdog.Socket {
      .init(
        isActive: { self.state.withLock { $0.active } }, isWritable: { self.state.withLock { $0.writable } },
        sendCloseFrame: {
          self.state.withLock { $0.closeFrames += 1 }
          if !self.closeFrameReturns { try? await Task.sleep(for: .seconds(3600)) }
        },
        close: { self.state.withLock { $0.closed = true } })
    }
  }

  @Test func aSocketThatNeverDrainsIsClosedAfterTheDeadlineEvenIfTheCloseFrameCannotGetThrough() async throws {
    let fake = FakeSocket(closeFrameReturns: false)
    fake.state.withLock { $0.writable = false }
    let watchdog = SlowClientWatchdog(
      socket: fake.socket, deadline: .milliseconds(200), closeFrameTimeout: .milliseconds(100))
    let start = ContinuousClock.now
    #expect(try await watchdog.watch())
    let elapsed = start.duration(to: .now)
    #expect(elapsed >= .milliseconds(200))
    #expect(elapsed < .seconds(5))
    #expect(fake.state.withLock { $0.closeFrames == 1 && $0.closed })
  }

  @Test func aSocketThatDrainsWithinTheDeadlineIsLeftOpen() async throws {
    let fake = FakeSocket(closeFrameReturns: true)
    let watchdog = SlowClientWatchdog(socket: fake.socket, deadline: .milliseconds(400))
    let watching = Task { try await watchdog.watch() }
    // Stalls shorter than the deadline, then writable again, several times over.
    for _ in 0..<4 {
      fake.state.withLock { $0.writable = false }
      try await Task.sleep(for: .milliseconds(150))
      fake.state.withLock { $0.writable = true }
      try await Task.sleep(for: .milliseconds(300))
    }
    fake.state.withLock { $0.active = false }
    #expect(try await watching.value == false)
    #expect(fake.state.withLock { $0.closeFrames == 0 && !$0.closed })
  }

  /// A write that fails once the socket is closed must find the client marked slow already: the mark comes first.
  @Test func theMarkIsSetBeforeTheCloseFrameAndTheClose() async throws {
    let mark = SlowClientMark()
    let seen = Mutex((atCloseFrame: false, atClose: false))
    let socket = SlowClientWatchdog.Socket(
      isActive: { true }, isWritable: { false },
      sendCloseFrame: { seen.withLock { $0.atCloseFrame = mark.isMarked } },
      close: { seen.withLock { $0.atClose = mark.isMarked } })
    let watchdog = SlowClientWatchdog(socket: socket, deadline: .milliseconds(100), mark: mark)
    #expect(!mark.isMarked)
    #expect(try await watchdog.watch())
    #expect(seen.withLock { $0.atCloseFrame && $0.atClose })
  }

  @Test func aClientLeftOpenIsNotMarked() async throws {
    let fake = FakeSocket(closeFrameReturns: true)
    let watchdog = SlowClientWatchdog(socket: fake.socket, deadline: .milliseconds(400))
    fake.state.withLock { $0.active = false }
    #expect(try await watchdog.watch() == false)
    #expect(!watchdog.mark.isMarked)
  }

  @Test func theDeadlineIsAnOption() throws {
    let options = try ServerOptions.parse(["--slow-client-deadline-ms", "3000", "--send-buffer-bytes", "16384"])
    #expect(options.limits.slowClientDeadline == .seconds(3))
    #expect(options.limits.sendBufferBytes == 16384)
    #expect(try ServerOptions.parse([]).limits.slowClientDeadline == .seconds(10))
  }
}
