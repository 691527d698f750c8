import EventBus

// Moving a manual clock's time one deadline at a time, and letting what it woke run before returning.

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension ManualClock {
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
