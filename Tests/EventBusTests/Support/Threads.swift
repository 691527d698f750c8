import Foundation
import Testing

@testable import EventBus

/// How long a concurrency test may run before its watchdog declares a deadlock. Generous: the machine is shared and
/// the sanitizers slow everything down; a correct run finishes far sooner.
let watchdogTimeout: TimeInterval = 180

/// Starts `count` threads together behind a barrier and waits for all of them, failing the test (instead of hanging)
/// if they don't finish within `timeout`.
///
/// The caller suspends while it waits: a thread of its own does the waiting, so a long stress test does not occupy
/// one of Swift Testing's cooperative threads (one per core) and starve the asynchronous tests running beside it.
/// Runs of several threads take turns (``threadRuns``): the machine has few cores, and stress tests side by side
/// would starve the rest.
///
/// - Returns: Whether every thread finished in time. On `false` the threads are still running (or stuck): don't
///   inspect what they share.
@discardableResult
func runConcurrently(
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

/// The turns that thread runs take: one at a time.
let threadRuns = AsyncGate()

/// A gate that one caller passes at a time, in arrival order; the others suspend, without blocking a thread.
final class AsyncGate: Sendable {
  private struct State {
    var isOpen = true
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  private let state = LockedState(State())

  /// Returns once the caller holds the gate.
  func enter() async {
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
  func leave() {
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

/// Runs `body` on one new thread with the given stack size, failing the test if it doesn't finish within `timeout`.
@discardableResult
func runOnThread(
  stackSize: Int = 1 << 20,
  timeout: TimeInterval = watchdogTimeout,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Void
) async -> Bool {
  await runConcurrently(threads: 1, stackSize: stackSize, timeout: timeout, sourceLocation: sourceLocation) { _ in
    body()
  }
}

/// Runs `body` on one new thread and blocks the caller until it finishes or `timeout` passes: for a wait that cannot
/// suspend, such as inside a handler. A test body calls `runOnThread`, which suspends instead.
///
/// - Returns: Whether `body` finished in time.
func runOnThreadBlocking(timeout: TimeInterval, _ body: @escaping @Sendable () -> Void) -> Bool {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.stackSize = 1 << 20
  thread.start()
  return done.wait(timeout: .now() + timeout) == .success
}

/// Runs `rounds` rounds on `count` threads that start every round together. Before each round `prepare(round)` runs
/// alone, once all threads have finished the previous round; then every thread runs `body(thread, round)`.
@discardableResult
func runInLockstep(
  threads count: Int,
  rounds: Int,
  timeout: TimeInterval = watchdogTimeout,
  sourceLocation: SourceLocation = #_sourceLocation,
  prepare: @escaping @Sendable (_ round: Int) -> Void = { _ in },
  _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void
) async -> Bool {
  let barrier = CyclicBarrier(parties: count)
  return await runConcurrently(threads: count, timeout: timeout, sourceLocation: sourceLocation) { thread in
    for round in 0..<rounds {
      barrier.arriveAndWait { prepare(round) }
      body(thread, round)
    }
  }
}

/// A barrier that `parties` threads pass together, again and again.
final class CyclicBarrier: @unchecked Sendable {
  // `waiting` and `generation` are guarded by `condition`.
  private let condition = NSCondition()
  private let parties: Int
  private var waiting = 0
  private var generation = 0

  init(parties: Int) {
    self.parties = parties
  }

  /// Blocks until all parties have arrived. The last to arrive runs `lastArrival` first, before anyone passes.
  func arriveAndWait(_ lastArrival: () -> Void = {}) {
    condition.lock()
    let myGeneration = generation
    waiting += 1
    if waiting == parties {
      condition.unlock()
      lastArrival()
      condition.lock()
      waiting = 0
      generation += 1
      condition.broadcast()
      condition.unlock()
      return
    }
    while generation == myGeneration {
      condition.wait()
    }
    condition.unlock()
  }
}

/// The number of frames on the calling thread's stack, capped at 128 (Foundation's limit). Used to prove that a long
/// chain of reentrant sends does not recurse: the depth must not grow.
func currentStackDepth() -> Int {
  Thread.callStackReturnAddresses.count
}

/// The identity of a thread that is not the caller's, for the calls that only compare a thread with the one that
/// holds an output's delivery.
///
/// The thread stays parked for the rest of the process: a thread that had exited could hand its identity (glibc reuses
/// the descriptor's address) to a thread started later, such as the one running the test that compares with it.
let parkedThreadIdentity: ThreadIdentity = {
  let identity = LockedState<ThreadIdentity?>(nil)
  let started = DispatchSemaphore(value: 0)
  let thread = Thread {
    identity.withLock { $0 = .current }
    started.signal()
    DispatchSemaphore(value: 0).wait()  // never signalled
  }
  thread.stackSize = 64 << 10
  thread.start()
  started.wait()
  return identity.withLock { $0 } ?? .current
}()
