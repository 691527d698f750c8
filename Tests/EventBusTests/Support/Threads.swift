import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

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
