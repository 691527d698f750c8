import EventBus

/// The recorder's waits for a test: each fails the test when what it waits for does not come, saying what came.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension EventRecorder {
  /// Waits until at least `count` events have been recorded; after `timeout`, fails the test with what arrived.
  ///
  /// ```swift
  /// await recorder.expectEvents(count: 2)
  /// // on a timeout: "EventRecorder: received 1 of 2 events within 5 s: [loading(true)]"
  /// ```
  ///
  /// It waits as ``EventRecorder/waitForEvents(count:timeout:)-(_,Duration)`` does, and records the issue at the call
  /// (a Swift Testing issue, or an XCTest failure in an XCTest test). A cancelled task ends the wait, recording
  /// nothing.
  ///
  /// - Parameters:
  ///   - count: How many events to wait for, counting those already recorded.
  ///   - timeout: The longest wait, in real time; 5 seconds by default.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether `count` events were recorded in time.
  @discardableResult
  public func expectEvents(
    count: Int,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let arrived = await waitForEvents(count: count, timeout: timeout)
    if !arrived, !Task.isCancelled {
      let events = self.events
      TestFailure.record(
        "EventRecorder: received \(events.count) of \(count) event\(count == 1 ? "" : "s") within "
          + "\(timeout.shortDescription)\(droppedNote): \(Self.list(events))",
        at: TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return arrived
  }

  /// Waits for the first recorded event that matches `predicate` and returns it; after `timeout`, fails the test with
  /// what arrived and returns `nil`.
  ///
  /// ```swift
  /// let quote = await recorder.expectEvent { if case .quote = $0 { true } else { false } }
  /// #expect(quote == .quote(1.5))
  /// ```
  ///
  /// Events already recorded count: the first of them that matches is returned at once. `predicate` runs on the
  /// waiting task, as ``EventRecorder/waitForEvent(timeout:where:)`` describes.
  ///
  /// - Parameters:
  ///   - timeout: The longest wait, in real time; 5 seconds by default.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  ///   - predicate: Whether an event is the one to wait for.
  /// - Returns: The first matching event, or `nil`.
  @discardableResult
  public func expectEvent(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    where predicate: (Event) throws -> Bool
  ) async rethrows -> Event? {
    let match = try await waitForEvent(timeout: timeout, where: predicate)
    if match == nil, !Task.isCancelled {
      let events = self.events
      TestFailure.record(
        "EventRecorder: no event matched within \(timeout.shortDescription); received \(events.count)\(droppedNote): "
          + Self.list(events),
        at: TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return match
  }

  /// Fails the test if an event is recorded while `clock` runs for `window`: the assertion that a source driven by a
  /// ``ManualClock`` stays quiet.
  ///
  /// ```swift
  /// await recorder.expectNoEvents(within: .seconds(9), on: clock)   // the timer's tick is due at 10 s
  /// ```
  ///
  /// It runs the clock as ``ManualClock/run(for:timeout:fileID:filePath:line:column:)`` does, so what the clock wakes
  /// in the window has run, and then compares the recorder's count with the count at the call; the issue lists the
  /// events that came.
  ///
  /// - Parameters:
  ///   - window: How far to move the clock's time.
  ///   - clock: The clock that drives the source.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether no event came.
  @discardableResult
  public func expectNoEvents(
    within window: Duration,
    on clock: ManualClock,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let before = count
    await clock.run(for: window, fileID: fileID, filePath: filePath, line: line, column: column)
    return expectNothing(after: before, within: "\(window.shortDescription) of the clock's time") {
      TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  /// Fails the test if an event is recorded within `window` of real time.
  ///
  /// ```swift
  /// viewModel.stop()
  /// await recorder.expectNoEvents(within: .milliseconds(100))
  /// ```
  ///
  /// It waits the whole window, so keep it short; where a ``ManualClock`` drives the source, pass the clock instead
  /// (``expectNoEvents(within:on:fileID:filePath:line:column:)``), which waits nothing.
  ///
  /// - Parameters:
  ///   - window: How long to watch, in real time.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether no event came.
  @discardableResult
  public func expectNoEvents(
    within window: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let before = count
    _ = await waitForEvents(count: before + 1, timeout: window)
    return expectNothing(after: before, within: window.shortDescription) {
      TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  private func expectNothing(after before: Int, within window: String, site: () -> TestCallSite) -> Bool {
    let events = self.events
    guard events.count > before else { return true }
    let came = Array(events[before...])
    TestFailure.record(
      "EventRecorder: expected no event within \(window); received \(came.count): \(Self.list(came))", at: site())
    return false
  }

  /// Returns once the streams this recorder records have delivered what was sent before the call, as
  /// ``EventBus/EventRecorder/waitUntilDelivered()`` does; after `timeout`, fails the test with the events received so
  /// far and returns `false`. A cancelled task ends the wait at once, returning `false` and recording nothing.
  ///
  /// A recorder of a broadcaster waits for the broadcaster's deliveries: the wait with a time limit for what a source
  /// handed a broadcaster.
  ///
  /// - Parameters:
  ///   - timeout: The longest wait, in real time.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether everything was delivered in time.
  @discardableResult
  public func waitUntilDelivered(
    timeout: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let delivered = await DeliveryTimeout.race(timeout: timeout) { try await self.waitUntilDelivered() }
    if delivered == false {
      let events = self.events
      TestFailure.record(
        "EventRecorder: the streams it records had not delivered within \(timeout.shortDescription); received "
          + "\(events.count)\(droppedNote): \(Self.list(events))",
        at: site)
    }
    return delivered == true
  }

  /// `, and 3 dropped by a buffering policy`, or nothing when none was: a wait that counts events says why some never
  /// came.
  var droppedNote: String {
    let dropped = droppedCount
    return dropped == 0 ? "" : ", and \(dropped) dropped by a buffering policy"
  }

  /// `[a, b, c]`, each event as `String(describing:)` writes it, the first 20 of them.
  static func list(_ events: [Event]) -> String {
    let shown = events.prefix(20).map { String(describing: $0) }
    let more = events.count > shown.count ? ", … \(events.count - shown.count) more" : ""
    return "[" + shown.joined(separator: ", ") + more + "]"
  }
}
