// Waiting for a count of events, or the first that matches, with a timeout.

extension EventRecorder {
  /// Waits until at least `count` events have been recorded, or 5 seconds have passed.
  ///
  /// ```swift
  /// #expect(await recorder.waitForEvents(count: 3))
  /// #expect(recorder.events == [1, 2, 3])
  /// ```
  ///
  /// As ``waitForEvents(count:timeout:)-(_,Duration)`` with its default timeout. In a test, prefer
  /// `expectEvents(count:timeout:)` from `EventBusTesting`, which fails the test saying what arrived.
  ///
  /// - Parameter count: How many events to wait for, counting those already recorded.
  /// - Returns: `true` when `count` events were recorded in time; `false` on timeout or when the waiting task is
  ///   cancelled.
  public func waitForEvents(count: Int) async -> Bool {
    await waitForEvents(count: count, timeoutNanoseconds: 5_000_000_000)
  }

  /// Waits until at least `count` events have been recorded, or `timeout` has passed.
  ///
  /// ```swift
  /// #expect(await recorder.waitForEvents(count: 3, timeout: .seconds(2)))
  /// #expect(recorder.events == [1, 2, 3])
  /// ```
  ///
  /// Returns at once when enough events are already there. Suspends without blocking a thread, so events delivered
  /// on the main actor arrive while a main-actor test waits. It only answers; in a test, `expectEvents(count:timeout:)`
  /// from `EventBusTesting` waits the same way and, on a timeout, fails the test with what arrived:
  /// `received 1 of 2: [loading(true)]`.
  ///
  /// - Parameters:
  ///   - count: How many events to wait for, counting those already recorded.
  ///   - timeout: The longest wait, in real time. Zero or a negative duration does not wait: the result says whether
  ///     the events are already there. One too long to count in nanoseconds (585 years) waits without a time limit,
  ///     until the events arrive or the task is cancelled.
  /// - Returns: `true` when `count` events were recorded in time; `false` on timeout or when the waiting task is
  ///   cancelled.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func waitForEvents(count: Int, timeout: Duration) async -> Bool {
    await waitForEvents(count: count, timeoutNanoseconds: Self.nanoseconds(forTimeout: timeout))
  }

  /// Waits until at least `count` events have been recorded, or `timeout` seconds have passed; the `Duration` form,
  /// ``waitForEvents(count:timeout:)-(_,Duration)``, replaces it.
  ///
  /// - Parameters:
  ///   - count: How many events to wait for, counting those already recorded.
  ///   - timeout: The longest wait, in seconds; 5 by default. `.infinity`, or any wait too long to count in
  ///     nanoseconds, waits without a time limit, until the events arrive or the task is cancelled. Zero, a negative
  ///     value or NaN does not wait: the result says whether the events are already there.
  /// - Returns: `true` when `count` events were recorded in time; `false` on timeout or when the waiting task is
  ///   cancelled.
  @available(*, deprecated, message: "pass the timeout as a Duration: waitForEvents(count:timeout: .seconds(5))")
  public func waitForEvents(count: Int, timeout: Double = 5) async -> Bool {
    await waitForEvents(count: count, timeoutNanoseconds: Self.nanoseconds(forTimeout: timeout))
  }

  /// Waits for the first recorded event that matches `predicate`, counting those already recorded, and returns it;
  /// `nil` when none came within `timeout` or the waiting task was cancelled.
  ///
  /// ```swift
  /// let loaded = await recorder.waitForEvent(timeout: .seconds(2)) { if case .items = $0 { true } else { false } }
  /// #expect(loaded == .items(["Tea"]))
  /// ```
  ///
  /// `predicate` runs on the waiting task, never under the recorder's lock, once for each recorded event until one
  /// matches. In a test, `expectEvent(timeout:where:)` from `EventBusTesting` also fails the test on a timeout, listing
  /// what arrived.
  ///
  /// - Parameters:
  ///   - timeout: The longest wait, in real time; 5 seconds by default.
  ///   - predicate: Whether an event is the one to wait for.
  /// - Returns: The first matching event, or `nil`.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func waitForEvent(
    timeout: Duration = .seconds(5),
    where predicate: (Event) throws -> Bool
  ) async rethrows -> Event? {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var looked = 0
    while true {
      let events = self.events
      if looked < events.count {
        if let match = try events[looked...].first(where: predicate) { return match }
        looked = events.count
      }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero,
        await waitForEvents(count: looked + 1, timeoutNanoseconds: Self.nanoseconds(forTimeout: remaining))
      else { return nil }
    }
  }

  /// Waits until at least `count` events have been recorded, or `timeoutNanoseconds` have passed (`nil`: no limit).
  private func waitForEvents(count: Int, timeoutNanoseconds: UInt64?) async -> Bool {
    let id = state.withLock { state in
      state.nextWaiterID += 1
      return state.nextWaiterID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let isSatisfied = state.withLock { state -> Bool in
          if state.events.count >= count { return true }
          state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
          return false
        }
        if isSatisfied {
          continuation.resume(returning: true)
          return
        }
        guard let nanoseconds = timeoutNanoseconds else {
          // No time limit: only the events or cancellation end the wait.
          if Task.isCancelled {
            giveUp(waiter: id)
          }
          return
        }
        let timeoutTask = Task { [weak self] in
          try? await Task.sleep(nanoseconds: nanoseconds)
          self?.giveUp(waiter: id)
        }
        let isWaiting = state.withLock { state -> Bool in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
          state.waiters[index].timeout = timeoutTask
          return true
        }
        if !isWaiting {
          // Satisfied between the two locks: the timer has nothing left to do.
          timeoutTask.cancel()
        }
        if Task.isCancelled {
          giveUp(waiter: id)
        }
      }
    } onCancel: {
      giveUp(waiter: id)
    }
  }

  /// A timeout as nanoseconds to sleep: 0 for zero and negative durations, `nil` (no limit) for anything beyond
  /// `UInt64.max` nanoseconds (585 years).
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static func nanoseconds(forTimeout timeout: Duration) -> UInt64? {
    guard timeout > .zero else { return 0 }
    // Checked before `components`, which traps for seconds beyond `Int64`.
    guard timeout < .seconds(18_446_744_074) else { return nil }
    let (seconds, attoseconds) = timeout.components
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    // Rounded up: a wait never ends before its timeout.
    let fraction = UInt64((attoseconds + 999_999_999) / 1_000_000_000)
    let (total, overflowAgain) = whole.addingReportingOverflow(fraction)
    return overflow || overflowAgain ? nil : total
  }

  /// A timeout in seconds as nanoseconds to sleep: 0 for zero, negative and NaN, `nil` (no limit) for infinity and for
  /// anything beyond `UInt64.max` nanoseconds (585 years), where converting would trap.
  static func nanoseconds(forTimeout timeout: Double) -> UInt64? {
    guard timeout > 0 else { return 0 }
    let nanoseconds = (timeout * 1e9).rounded(.up)
    guard nanoseconds < Double(UInt64.max) else { return nil }
    return UInt64(nanoseconds)
  }

  /// Resumes the waiter `id` with `false`, unless it has already been resumed.
  private func giveUp(waiter id: UInt64) {
    let waiter = state.withLock { state -> Waiter? in
      guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return state.waiters.remove(at: index)
    }
    guard let waiter else { return }
    waiter.timeout?.cancel()
    waiter.continuation.resume(returning: false)
  }
}
