import EventBus

/// A clock whose time moves only when a test calls ``advance(by:)``: what a timer or a backoff waits on in a test that
/// must not sleep.
///
/// Its time starts at zero. A sleeper whose deadline the clock reaches is woken by the `advance(by:)` that reached
/// it, in deadline order; one whose task is cancelled ends at once with `CancellationError`. A test learns that the
/// code under test has gone back to sleep with ``waitUntil(sleeperCount:)``, which suspends instead of polling.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class ManualClock: Clock, Sendable {
  /// A point in the clock's time: how far the clock had been advanced.
  public struct Instant: InstantProtocol {
    /// The time since the clock's start.
    public var offset: Duration

    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Waiter {
    let sleeperCount: Int
    let continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    /// Sleeps begun and not yet ended, whether or not their continuation is registered yet.
    var pending: Set<Int> = []
    /// Pending sleeps whose task was cancelled before their continuation was registered.
    var cancelled: Set<Int> = []
    var sleepers: [Int: Sleeper] = [:]
    var waiters: [Waiter] = []

    /// Takes out the waiters that the current number of sleepers satisfies.
    mutating func satisfiedWaiters() -> [Waiter] {
      let satisfied = waiters.filter { $0.sleeperCount == sleepers.count }
      waiters.removeAll { $0.sleeperCount == sleepers.count }
      return satisfied
    }
  }

  private let state = LockedState(State())

  /// Creates a clock at time zero.
  public init() {}

  public var now: Instant {
    state.withLock { $0.now }
  }

  public var minimumResolution: Duration {
    .zero
  }

  /// How many tasks are asleep on the clock.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// The deadlines of the tasks asleep on the clock, as offsets from its start, earliest first.
  public var deadlines: [Duration] {
    state.withLock { $0.sleepers.values.map(\.deadline.offset).sorted() }
  }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      state.pending.insert(state.nextID)
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Outcome {
          case wake, cancel
          case sleep([Waiter])
        }
        let outcome = state.withLock { state -> Outcome in
          if state.cancelled.remove(id) != nil {
            state.pending.remove(id)
            return .cancel
          }
          if deadline <= state.now {
            state.pending.remove(id)
            return .wake
          }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return .sleep(state.satisfiedWaiters())
        }
        switch outcome {
        case .wake: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        case .sleep(let waiters):
          for waiter in waiters { waiter.continuation.resume() }
        }
      }
    } onCancel: {
      let (sleeper, waiters) = state.withLock { state -> (Sleeper?, [Waiter]) in
        guard state.pending.contains(id) else { return (nil, []) }
        guard let sleeper = state.sleepers.removeValue(forKey: id) else {
          state.cancelled.insert(id)
          return (nil, [])
        }
        state.pending.remove(id)
        return (sleeper, state.satisfiedWaiters())
      }
      sleeper?.continuation.resume(throwing: CancellationError())
      for waiter in waiters { waiter.continuation.resume() }
    }
  }

  /// Moves the clock's time forward by `duration` and wakes every sleeper whose deadline it reached, earliest first.
  ///
  /// What the woken tasks do next runs after this returns; ``waitUntil(sleeperCount:)`` waits for them to sleep again.
  public func advance(by duration: Duration) {
    let (woken, waiters) = state.withLock { state -> ([Sleeper], [Waiter]) in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.value.deadline <= now }.sorted {
        ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
      }
      for (id, _) in due {
        state.sleepers[id] = nil
        state.pending.remove(id)
      }
      return (due.map(\.value), state.satisfiedWaiters())
    }
    for sleeper in woken { sleeper.continuation.resume() }
    for waiter in waiters { waiter.continuation.resume() }
  }

  /// Suspends until exactly `count` tasks are asleep on the clock.
  public func waitUntil(sleeperCount count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let satisfied = state.withLock { state in
        guard state.sleepers.count != count else { return true }
        state.waiters.append(Waiter(sleeperCount: count, continuation: continuation))
        return false
      }
      if satisfied { continuation.resume() }
    }
  }
}
