import EventBus

/// A clock whose time moves only when a test moves it: what a timer or a backoff waits on in a test that must not
/// sleep.
///
/// Its time starts at zero. A sleeper whose deadline the clock reaches is woken, in deadline order; one whose task is
/// cancelled ends at once with `CancellationError`.
///
/// ```swift
/// let clock = ManualClock()
/// let ticks = Broadcaster(source: TimerSource(every: .seconds(10), clock: clock))
/// let recorder = EventRecorder(ticks)
/// await clock.waitUntil(sleeperCount: 1)   // the timer is asleep until 10 s
/// await clock.run(for: .seconds(30))       // three ticks, each handled before the next
/// #expect(recorder.count == 3)
/// ```
///
/// ## Waiting for the code under test
/// ``waitUntil(sleeperCount:timeout:fileID:filePath:line:column:)`` and
/// ``waitUntil(sleeperCountAtLeast:timeout:fileID:filePath:line:column:)`` suspend until the code under test is asleep
/// on the clock, without polling. Neither hangs: after `timeout` of real time (5 seconds by default) the wait fails the
/// test, naming the sleepers it found and their deadlines, and returns `false`.
///
/// ## Moving time
/// ``advance(by:)`` moves the time and wakes the sleepers it reached, and returns at once: what the woken tasks do runs
/// after it. ``run(for:timeout:fileID:filePath:line:column:)``, ``runToNextDeadline(timeout:fileID:filePath:line:column:)``
/// and ``run(timeout:fileID:filePath:line:column:)`` move it one deadline at a time and let the woken tasks run before
/// they go on. Each step returns once every task it woke is asleep on the clock again: exactly then, for a timer or a
/// backoff that sleeps again. A woken task that ends instead, or goes on to wait for something else (a network call,
/// `Task.sleep`), cannot be seen to do so; for it the step waits until no sleep has begun or ended on the clock for
/// 100 turns of the executor and at least 50 ms, which lets it run to its next suspension, across actor hops and the
/// tasks it starts, unless the system stalls it longer.
///
/// The guarantee stops at work handed to a real `DispatchQueue` (a `.queue(_:)` or `.main` subscriber of what the
/// task sent, a `DispatchQueue.asyncAfter`) and at tasks asleep on another clock: await those with
/// `Output/waitUntilDelivered()`, `Broadcaster/waitUntilDelivered()` or the recorder's waits.
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

  struct Sleeper {
    let deadline: Instant
    let task: Int?
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// What a wait waits for.
  enum Condition: Sendable {
    case exactly(Int)
    case atLeast(Int)

    func isMet(by count: Int) -> Bool {
      switch self {
      case .exactly(let wanted): count == wanted
      case .atLeast(let wanted): count >= wanted
      }
    }

    var description: String {
      switch self {
      case .exactly(let wanted): "exactly \(wanted) sleeper\(wanted == 1 ? "" : "s")"
      case .atLeast(let wanted): "at least \(wanted) sleeper\(wanted == 1 ? "" : "s")"
      }
    }
  }

  struct Waiter {
    let id: Int
    let condition: Condition
    let continuation: CheckedContinuation<Bool, Never>
  }

  struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    /// Sleeps begun and not yet ended, whether or not their continuation is registered yet.
    var pending: Set<Int> = []
    /// Pending sleeps whose task was cancelled before their continuation was registered.
    var cancelled: Set<Int> = []
    var sleepers: [Int: Sleeper] = [:]
    var waiters: [Waiter] = []
    /// Sleeps that the last step woke and that have not yet returned to their task.
    var wokenNotResumed: Set<Int> = []
    /// Tasks that the last step woke, that have resumed, and have not gone back to sleep on the clock since.
    var wokenRunning: Set<Int> = []
    /// Counts every sleep that begins or ends, for a settling step to see that something still happens.
    var activity = 0

    /// Takes out the waiters that the current number of sleepers satisfies.
    mutating func satisfiedWaiters() -> [Waiter] {
      let count = sleepers.count
      guard waiters.contains(where: { $0.condition.isMet(by: count) }) else { return [] }
      let satisfied = waiters.filter { $0.condition.isMet(by: count) }
      waiters.removeAll { $0.condition.isMet(by: count) }
      return satisfied
    }

    /// Moves the time to `instant` and takes out the sleepers due by then, earliest first.
    mutating func move(to instant: Instant) -> [(id: Int, sleeper: Sleeper)] {
      now = max(now, instant)
      let due = sleepers.filter { $0.value.deadline <= now }.sorted {
        ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
      }
      for (id, _) in due {
        sleepers[id] = nil
        pending.remove(id)
      }
      if !due.isEmpty { activity += 1 }
      return due.map { ($0.key, $0.value) }
    }

    /// The earliest deadline of a sleeper.
    var nextDeadline: Instant? {
      sleepers.values.map(\.deadline).min()
    }

    /// The sleepers and their deadlines, for a failure message.
    var sleepersDescription: String {
      let deadlines = sleepers.values.map(\.deadline.offset).sorted()
      let asleep =
        deadlines.isEmpty
        ? "no sleeper"
        : "\(deadlines.count) sleeper\(deadlines.count == 1 ? "" : "s"), until "
          + deadlines.map(\.shortDescription).joined(separator: ", ")
      return "\(asleep) (the clock is at \(now.offset.shortDescription))"
    }
  }

  /// How many executor turns a settling step gives woken tasks that neither go back to sleep on the clock nor start
  /// or end a sleep: enough for a chain of actor hops and task starts to run, cheap for a test (microseconds).
  static let settlingTurns = 100

  /// How long, in real time, a settling step gives such tasks at least.
  static let settlingTime = Duration.milliseconds(50)

  let state = LockedState(State())

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
    let task = withUnsafeCurrentTask { $0?.hashValue }
    let id = state.withLock { state in
      state.nextID += 1
      state.pending.insert(state.nextID)
      state.activity += 1
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
          state.sleepers[id] = Sleeper(deadline: deadline, task: task, continuation: continuation)
          // Asleep again, in the same step as the sleeper appears: a settling step never sees the task neither
          // running nor asleep.
          if let task { state.wokenRunning.remove(task) }
          return .sleep(state.satisfiedWaiters())
        }
        switch outcome {
        case .wake: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        case .sleep(let waiters):
          for waiter in waiters { waiter.continuation.resume(returning: true) }
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
        state.activity += 1
        return (sleeper, state.satisfiedWaiters())
      }
      sleeper?.continuation.resume(throwing: CancellationError())
      for waiter in waiters { waiter.continuation.resume(returning: true) }
    }
    // Woken: the task runs again from here.
    state.withLock { state in
      if state.wokenNotResumed.remove(id) != nil, let task {
        state.wokenRunning.insert(task)
      }
      state.activity += 1
    }
  }

  /// Moves the clock's time forward by `duration` and wakes every sleeper whose deadline it reached, earliest first.
  ///
  /// What the woken tasks do next runs after this returns; ``run(for:timeout:fileID:filePath:line:column:)`` waits for
  /// it, and ``waitUntil(sleeperCount:timeout:fileID:filePath:line:column:)`` for them to sleep again.
  public func advance(by duration: Duration) {
    let (woken, waiters) = state.withLock { state -> ([Sleeper], [Waiter]) in
      let woken = state.move(to: state.now.advanced(by: duration)).map(\.sleeper)
      return (woken, state.satisfiedWaiters())
    }
    for sleeper in woken { sleeper.continuation.resume() }
    for waiter in waiters { waiter.continuation.resume(returning: true) }
  }

}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Duration {
  /// Nanoseconds to sleep: 0 for a negative duration, and at most `UInt64.max`.
  var clampedNanoseconds: UInt64 {
    guard self > .zero else { return 0 }
    // Checked before `components`, which traps for seconds beyond `Int64`.
    guard self < .seconds(18_446_744_074) else { return .max }
    let (seconds, attoseconds) = components
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .max }
    let (total, overflowAgain) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
    return overflowAgain ? .max : total
  }
}
