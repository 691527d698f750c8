import Broadcasters
import EventBus
import Foundation

/// An in-memory keyed upstream: it records every step the source takes (`open 1`, `attach a`, `detach a`,
/// `close 1`), routes what a test publishes to the sink of the key's attach, and can be made unreachable, can drop
/// its session, can fail an attach, and can slow its steps down to widen races.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
final class TestKeyedUpstream: KeyedUpstream, Sendable {
  struct Unreachable: Error, CustomStringConvertible {
    var description: String { "unreachable" }
  }

  /// One session; it ends once, by a drop or a close.
  final class Session: Sendable {
    let number: Int
    private let state = LockedState<(ended: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init(number: Int) { self.number = number }

    func end() {
      let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        state.ended = true
        return replacing(&state.waiters, with: [])
      }
      for waiter in waiters { waiter.resume() }
    }

    func waitForEnd() async {
      await withCheckedContinuation { continuation in
        let endedAlready = state.withLock { state in
          if !state.ended { state.waiters.append(continuation) }
          return state.ended
        }
        if endedAlready { continuation.resume() }
      }
    }
  }

  private struct State {
    var history: [String] = []
    var lastSession = 0
    var live: Session?
    var openSessions = 0
    var maxOpenSessions = 0
    var stepsRunning = 0
    var maxStepsRunning = 0
    var sinks: [String: EventSink<Int>] = [:]
    var isReachable = true
    var failingAttaches: Set<String> = []
  }

  private let state = LockedState(State())
  private let stepDelay: Duration

  /// - Parameter stepDelay: How long each attach and detach takes.
  init(stepDelay: Duration = .zero) {
    self.stepDelay = stepDelay
  }

  var history: [String] { state.withLock { $0.history } }
  var attachedKeys: Set<String> { state.withLock { Set($0.sinks.keys) } }
  var openSessions: Int { state.withLock { $0.openSessions } }
  var maxOpenSessions: Int { state.withLock { $0.maxOpenSessions } }
  var maxStepsRunning: Int { state.withLock { $0.maxStepsRunning } }

  /// Whether `openSession` succeeds.
  func setReachable(_ reachable: Bool) {
    state.withLock { $0.isReachable = reachable }
  }

  /// The next attach of `key` throws, and the session counts as failed.
  func failNextAttach(of key: String) {
    state.withLock { _ = $0.failingAttaches.insert(key) }
  }

  /// The live session's connection drops: it ends without a close, as a terminated connection does.
  func dropSession() {
    let session = state.withLock { state -> Session? in
      guard let live = state.live else { return nil }
      state.history.append("drop \(live.number)")
      state.sinks = [:]
      return live
    }
    session?.end()
  }

  /// Sends `value` to the subscribers of `key` if `key` is attached; returns whether it was.
  @discardableResult
  func publish(_ value: Int, to key: String) -> Bool {
    guard let sink = state.withLock({ $0.sinks[key] }) else { return false }
    sink.send(value)
    return true
  }

  func openSession() async throws -> Session {
    try state.withLock { state in
      guard state.isReachable else {
        state.history.append("refused")
        throw Unreachable()
      }
      state.lastSession += 1
      let session = Session(number: state.lastSession)
      state.live = session
      state.openSessions += 1
      state.maxOpenSessions = max(state.maxOpenSessions, state.openSessions)
      state.history.append("open \(session.number)")
      return session
    }
  }

  func attach(_ key: String, to session: Session, emitting sink: EventSink<Int>) async throws {
    try await step {
      try state.withLock { state in
        if state.failingAttaches.remove(key) != nil {
          state.history.append("attach \(key) failed")
          throw Unreachable()
        }
        state.history.append("attach \(key)")
        if state.live === session { state.sinks[key] = sink }
      }
    }
  }

  func detach(_ key: String, from session: Session) async throws {
    try await step {
      state.withLock { state in
        state.history.append("detach \(key)")
        if state.live === session { state.sinks[key] = nil }
      }
    }
  }

  func waitForEnd(of session: Session) async throws {
    await session.waitForEnd()
  }

  func closeSession(_ session: Session) async {
    state.withLock { state in
      state.history.append("close \(session.number)")
      state.openSessions -= 1
      if state.live === session {
        state.live = nil
        state.sinks = [:]
      }
    }
    session.end()
  }

  /// Runs an attach or detach, counting how many run at once.
  private func step(_ body: () throws -> Void) async throws {
    state.withLock { state in
      state.stepsRunning += 1
      state.maxStepsRunning = max(state.maxStepsRunning, state.stepsRunning)
    }
    defer { state.withLock { $0.stepsRunning -= 1 } }
    if stepDelay > .zero {
      try? await Task.sleep(for: stepDelay)
    }
    try body()
  }
}
