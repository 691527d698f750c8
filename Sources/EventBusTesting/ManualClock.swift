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

  private struct Sleeper {
    let deadline: Instant
    let task: Int?
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// What a wait waits for.
  private enum Condition: Sendable {
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

  private struct Waiter {
    let id: Int
    let condition: Condition
    let continuation: CheckedContinuation<Bool, Never>
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
  private static let settlingTurns = 100

  /// How long, in real time, a settling step gives such tasks at least.
  private static let settlingTime = Duration.milliseconds(50)

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

  // MARK: - Waiting for sleepers

  /// Suspends until exactly `count` tasks are asleep on the clock, or fails the test after `timeout`.
  ///
  /// ```swift
  /// await clock.waitUntil(sleeperCount: 2)   // the timer and the backoff
  /// ```
  ///
  /// When `timeout` of real time passes first, it records a test issue at the call (a Swift Testing issue, or an
  /// XCTest failure in an XCTest test) that names the sleepers it found and their deadlines, and returns `false`. A
  /// cancelled task ends the wait at once, returning `false` and recording nothing.
  ///
  /// - Parameters:
  ///   - count: How many sleepers to wait for: no more, no fewer.
  ///   - timeout: The longest wait, in real time; 5 seconds by default.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether exactly `count` tasks were asleep before the timeout.
  @discardableResult
  public func waitUntil(
    sleeperCount count: Int,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    await wait(
      for: .exactly(count), timeout: timeout,
      at: TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Suspends until at least `count` tasks are asleep on the clock, or fails the test after `timeout`; as
  /// ``waitUntil(sleeperCount:timeout:fileID:filePath:line:column:)`` otherwise.
  ///
  /// For code whose number of sleepers the test does not fix, such as a screen that starts a timer beside sources of
  /// its own: `await clock.waitUntil(sleeperCountAtLeast: 1)`.
  ///
  /// - Returns: Whether at least `count` tasks were asleep before the timeout.
  @discardableResult
  public func waitUntil(
    sleeperCountAtLeast count: Int,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    await wait(
      for: .atLeast(count), timeout: timeout,
      at: TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func wait(for condition: Condition, timeout: Duration, at site: TestCallSite) async -> Bool {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    let timer = Task { [weak self] in
      try? await Task.sleep(nanoseconds: timeout.clampedNanoseconds)
      self?.giveUp(waiter: id)
    }
    defer { timer.cancel() }
    let met = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let isMet = state.withLock { state -> Bool in
          if condition.isMet(by: state.sleepers.count) { return true }
          state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
          return false
        }
        if isMet {
          continuation.resume(returning: true)
        } else if Task.isCancelled {
          // Cancelled before the waiter was there for the cancellation handler to find.
          giveUp(waiter: id)
        }
      }
    } onCancel: {
      giveUp(waiter: id)
    }
    if !met, !Task.isCancelled {
      let found = state.withLock { $0.sleepersDescription }
      TestFailure.record(
        "ManualClock: waited \(timeout.shortDescription) for \(condition.description); found \(found)", at: site)
    }
    return met
  }

  /// Resumes the waiter `id` with `false`, unless it has already been resumed.
  private func giveUp(waiter id: Int) {
    let waiter = state.withLock { state -> Waiter? in
      guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return state.waiters.remove(at: index)
    }
    waiter?.continuation.resume(returning: false)
  }

  // MARK: - Moving time and letting it settle

  /// Moves the clock's time forward by `duration`, one deadline at a time, and returns once what it woke has run.
  ///
  /// ```swift
  /// await clock.run(for: .seconds(10))   // the timer ticked, and its subscribers handled the tick
  /// #expect(recorder.events == [.ageCheck])
  /// ```
  ///
  /// Each sleeper whose deadline it reaches is woken at its deadline, with the clock's time there, and runs before a
  /// later one is woken: a timer that sleeps again is woken again within the same call. See ``ManualClock`` for what
  /// "has run" covers, and where it stops (work on a real `DispatchQueue`). Sleepers that begin after the call are
  /// woken too if their deadline is within `duration`; a task not yet asleep when the call begins is not waited for:
  /// wait for it with ``waitUntil(sleeperCount:timeout:fileID:filePath:line:column:)`` first.
  ///
  /// - Parameters:
  ///   - duration: How far to move the time.
  ///   - timeout: The longest this call takes in real time, 5 seconds by default; then it fails the test, naming the
  ///     sleepers, and returns `false`.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether the time reached `now + duration` within the timeout.
  @discardableResult
  public func run(
    for duration: Duration,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let target = now.advanced(by: duration)
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
      let next = state.withLock { state -> Instant in
        guard let next = state.nextDeadline, next <= target else { return target }
        return next
      }
      let wokeAny = await step(to: next, before: deadline)
      if !wokeAny, next == target { return true }
      if ContinuousClock.now >= deadline {
        let found = state.withLock { $0.sleepersDescription }
        TestFailure.record(
          "ManualClock: run(for: \(duration.shortDescription)) did not reach "
            + "\(target.offset.shortDescription) within \(timeout.shortDescription); found \(found)",
          at: site)
        return false
      }
    }
  }

  /// Waits for a sleeper, moves the time to the earliest deadline, wakes what sleeps until then, and returns once it
  /// has run, as ``run(for:timeout:fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// await clock.runToNextDeadline()   // the backoff's wait, whatever its length
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: The longest wait for a sleeper and for what it wakes to run, in real time; 5 seconds by default.
  ///     Then it fails the test, naming the sleepers, and returns `false`.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether a sleeper was there to wake within the timeout.
  @discardableResult
  public func runToNextDeadline(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let deadline = ContinuousClock.now.advanced(by: timeout)
    guard await wait(for: .atLeast(1), timeout: timeout, at: site) else { return false }
    guard let next = state.withLock({ $0.nextDeadline }) else { return true }  // cancelled meanwhile: nothing due
    _ = await step(to: next, before: deadline)
    return true
  }

  /// Moves the time from deadline to deadline, letting what each wakes run, until no task is asleep on the clock.
  ///
  /// ```swift
  /// await clock.run()   // every retry of the backoff, until the feed connects and nothing sleeps on the clock
  /// ```
  ///
  /// For code that stops sleeping by itself. Code that always sleeps again, such as a timer, never lets it end: it
  /// fails the test after `timeout` of real time, naming the sleepers; run such code with
  /// ``run(for:timeout:fileID:filePath:line:column:)``.
  ///
  /// - Parameters:
  ///   - timeout: The longest this call takes in real time; 5 seconds by default.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether no sleeper was left within the timeout.
  @discardableResult
  public func run(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while let next = state.withLock({ $0.nextDeadline }) {
      _ = await step(to: next, before: deadline)
      if ContinuousClock.now >= deadline {
        let found = state.withLock { $0.sleepersDescription }
        TestFailure.record(
          "ManualClock: run() found a sleeper after every step for \(timeout.shortDescription); found \(found)",
          at: site)
        return false
      }
    }
    return true
  }

  /// Moves the time to `instant`, wakes what is due, and waits for the woken tasks to settle. Returns whether it
  /// woke any.
  private func step(to instant: Instant, before deadline: ContinuousClock.Instant) async -> Bool {
    let (woken, waiters) = state.withLock { state -> ([Sleeper], [Waiter]) in
      let woken = state.move(to: instant)
      // Marked before they are resumed: a woken sleep reports its return against these.
      state.wokenNotResumed = Set(woken.map(\.id))
      state.wokenRunning = []
      return (woken.map(\.sleeper), state.satisfiedWaiters())
    }
    guard !woken.isEmpty else {
      for waiter in waiters { waiter.continuation.resume(returning: true) }
      return false
    }
    for sleeper in woken { sleeper.continuation.resume() }
    for waiter in waiters { waiter.continuation.resume(returning: true) }
    await settle(before: deadline)
    return true
  }

  /// Yields until every woken task has resumed, and then until each is asleep on the clock again, or until no sleep
  /// has begun or ended for ``settlingTurns`` turns of the executor and ``settlingTime`` of real time.
  private func settle(before deadline: ContinuousClock.Instant) async {
    var quietTurns = 0
    var quietSince = ContinuousClock.now
    var lastActivity = -1
    while ContinuousClock.now < deadline {
      let (resumed, running, activity) = state.withLock {
        ($0.wokenNotResumed.isEmpty, $0.wokenRunning.isEmpty, $0.activity)
      }
      if resumed, running, quietTurns > 0 { return }
      if activity != lastActivity {
        quietTurns = 0
        quietSince = ContinuousClock.now
      }
      if resumed {
        quietTurns += 1
        // Turns and time both: a task that has resumed may be between two steps of its own, on a thread the system
        // has paused, while this one takes its turns.
        if quietTurns > Self.settlingTurns, ContinuousClock.now - quietSince >= Self.settlingTime { return }
      }
      lastActivity = activity
      await Task.yield()
    }
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
