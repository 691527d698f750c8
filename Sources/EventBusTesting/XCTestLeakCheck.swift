#if canImport(XCTest)
  import XCTest

  /// Fails the XCTest test when `body` leaves EventBus objects alive, naming each one and where it was subscribed.
  ///
  /// ```swift
  /// func testClosingTheScreenEndsItsSubscriptions() {
  ///   assertNoLeakedEventBusObjects {
  ///     let screen = ProfileScreen()
  ///     screen.close()
  ///   }
  /// }
  /// ```
  ///
  /// Fails, too, in a build that does not count live objects; see ``LeakCheck``.
  ///
  /// - Parameters:
  ///   - body: The code to check.
  ///   - file: The file to report a failure in; leave the default, and `line`'s.
  ///   - line: The line to report a failure at.
  public func assertNoLeakedEventBusObjects(
    during body: () throws -> Void,
    file: StaticString = #filePath,
    line: UInt = #line
  ) rethrows {
    let report = try LeakCheck.report(during: body)
    if !report.isClean {
      XCTFail(report.description, file: file, line: line)
    }
  }

  /// Fails the XCTest test when `body`, which may suspend, leaves EventBus objects alive; as the synchronous form, but
  /// it waits up to 2 seconds for them to be released first, as ``LeakCheck/report(isolation:during:)`` does.
  ///
  /// - Parameters:
  ///   - isolation: The actor `body` runs on; the caller's by default.
  ///   - body: The code to check.
  ///   - file: The file to report a failure in; leave the default, and `line`'s.
  ///   - line: The line to report a failure at.
  public func assertNoLeakedEventBusObjects(
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async rethrows {
    let report = try await LeakCheck.report(
      waitingUpToNanoseconds: LeakCheck.nanoseconds(2), isolation: isolation, during: body)
    failIfLeaked(report, file: file, line: line)
  }

  /// Fails the XCTest test when `body`, which may suspend, leaves EventBus objects alive `wait` after it returned, as
  /// ``LeakCheck/report(waitingUpTo:isolation:during:)-(Duration,_,_)``.
  ///
  /// - Parameters:
  ///   - wait: How long to wait, once `body` has returned, for what it created to be released.
  ///   - isolation: The actor `body` runs on; the caller's by default.
  ///   - body: The code to check.
  ///   - file: The file to report a failure in; leave the default, and `line`'s.
  ///   - line: The line to report a failure at.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func assertNoLeakedEventBusObjects(
    waitingUpTo wait: Duration,
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async rethrows {
    let report = try await LeakCheck.report(
      waitingUpToNanoseconds: wait.clampedNanoseconds, isolation: isolation, during: body)
    failIfLeaked(report, file: file, line: line)
  }

  /// As the `Duration` form, with the wait in seconds; the `Duration` form replaces it.
  ///
  /// - Parameters:
  ///   - seconds: How long to wait, once `body` has returned, for what it created to be released.
  ///   - isolation: The actor `body` runs on; the caller's by default.
  ///   - body: The code to check.
  ///   - file: The file to report a failure in; leave the default, and `line`'s.
  ///   - line: The line to report a failure at.
  @available(*, deprecated, message: "pass the wait as a Duration: waitingUpTo: .seconds(2)")
  public func assertNoLeakedEventBusObjects(
    waitingUpTo seconds: Double,
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async rethrows {
    let report = try await LeakCheck.report(
      waitingUpToNanoseconds: LeakCheck.nanoseconds(seconds), isolation: isolation, during: body)
    failIfLeaked(report, file: file, line: line)
  }

  private func failIfLeaked(_ report: LeakReport, file: StaticString, line: UInt) {
    if !report.isClean {
      XCTFail(report.description, file: file, line: line)
    }
  }
#endif
