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
  /// it waits up to `seconds` for them to be released first, as ``LeakCheck/report(waitingUpTo:isolation:during:)``.
  ///
  /// - Parameters:
  ///   - seconds: How long to wait, once `body` has returned, for what it created to be released; 2 by default.
  ///   - isolation: The actor `body` runs on; the caller's by default.
  ///   - body: The code to check.
  ///   - file: The file to report a failure in; leave the default, and `line`'s.
  ///   - line: The line to report a failure at.
  public func assertNoLeakedEventBusObjects(
    waitingUpTo seconds: Double = 2,
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async rethrows {
    let report = try await LeakCheck.report(waitingUpTo: seconds, isolation: isolation, during: body)
    if !report.isClean {
      XCTFail(report.description, file: file, line: line)
    }
  }
#endif
