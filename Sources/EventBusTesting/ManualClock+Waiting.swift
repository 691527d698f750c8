import EventBus

// Waiting for the tasks asleep on a manual clock, with a timeout that fails the test naming what it found.

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension ManualClock {
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

  /// Suspends until `condition` holds of the sleepers, or records an issue at `site` after `timeout`.
  func wait(for condition: Condition, timeout: Duration, at site: TestCallSite) async -> Bool {
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
}
