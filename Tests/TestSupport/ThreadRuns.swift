import Dispatch
import EventBus
import Foundation
import Testing

/// How long a concurrency test may run before its watchdog declares a deadlock. Generous: the machine is shared and
/// the sanitizers slow everything down; a correct run finishes far sooner.
public let watchdogTimeout: TimeInterval = 180

/// Starts `count` threads together behind a barrier and waits for all of them, failing the test (instead of hanging)
/// if they don't finish within `timeout`.
///
/// The caller suspends while it waits: a thread of its own does the waiting, so a long stress test does not occupy
/// one of Swift Testing's cooperative threads (one per core) and starve the asynchronous tests running beside it.
/// Runs of several threads take turns (``threadRuns``), across every test target: the machine has few cores, and
/// stress tests side by side would starve the rest.
///
/// - Returns: Whether every thread finished in time. On `false` the threads are still running (or stuck): don't
///   inspect what they share.
@discardableResult
public func runConcurrently(
  threads count: Int,
  stackSize: Int = 1 << 20,
  timeout: TimeInterval = watchdogTimeout,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (_ thread: Int) -> Void
) async -> Bool {
  // One thread is not a stress run; and a test may hold a queue (the main one, say) until its thread has run.
  let takesTurns = count > 1
  if takesTurns { await threadRuns.enter() }
  defer { if takesTurns { threadRuns.leave() } }
  let finished = await withCheckedContinuation { continuation in
    let waiter = Thread {
      let ready = DispatchGroup()
      let start = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      for index in 0..<count {
        ready.enter()
        done.enter()
        let thread = Thread {
          ready.leave()
          start.wait()
          body(index)
          done.leave()
        }
        thread.stackSize = stackSize
        thread.start()
      }
      ready.wait()
      for _ in 0..<count { start.signal() }
      continuation.resume(returning: done.wait(timeout: .now() + timeout) == .success)
    }
    waiter.stackSize = 64 << 10
    waiter.start()
  }
  #expect(
    finished, "watchdog: \(count) thread(s) did not finish within \(Int(timeout)) s (deadlock?)",
    sourceLocation: sourceLocation)
  return finished
}

/// The turns that runs of several threads take: one at a time.
public let threadRuns = AsyncGate()

/// A gate that one caller passes at a time, in arrival order; the others suspend, without blocking a thread.
public final class AsyncGate: Sendable {
  private struct State {
    var isOpen = true
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  private let state = LockedState(State())

  public init() {}

  /// Returns once the caller holds the gate.
  public func enter() async {
    await withCheckedContinuation { continuation in
      let passes = state.withLock { state in
        guard state.isOpen else {
          state.waiting.append(continuation)
          return false
        }
        state.isOpen = false
        return true
      }
      if passes { continuation.resume() }
    }
  }

  /// Hands the gate to the next caller waiting, or opens it.
  public func leave() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiting.isEmpty else {
        state.isOpen = true
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}
