import Foundation
import Testing

@testable import EventBus

/// How long a concurrency test may run before its watchdog declares a deadlock. Generous: the machine is shared and
/// the sanitizers slow everything down; a correct run finishes far sooner.
let watchdogTimeout: TimeInterval = 180

/// Starts `count` threads together behind a barrier and waits for all of them, failing the test (instead of hanging)
/// if they don't finish within `timeout`.
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
) -> Bool {
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
  let finished = done.wait(timeout: .now() + timeout) == .success
  #expect(
    finished, "watchdog: \(count) thread(s) did not finish within \(Int(timeout)) s (deadlock?)",
    sourceLocation: sourceLocation)
  return finished
}

/// Runs `body` on one new thread with the given stack size, failing the test if it doesn't finish within `timeout`.
@discardableResult
func runOnThread(
  stackSize: Int = 1 << 20,
  timeout: TimeInterval = watchdogTimeout,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Void
) -> Bool {
  runConcurrently(threads: 1, stackSize: stackSize, timeout: timeout, sourceLocation: sourceLocation) { _ in body() }
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
) -> Bool {
  let barrier = CyclicBarrier(parties: count)
  return runConcurrently(threads: count, timeout: timeout, sourceLocation: sourceLocation) { thread in
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
