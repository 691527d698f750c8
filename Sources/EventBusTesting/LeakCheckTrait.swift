import Testing

/// A Swift Testing trait that fails a test which leaves EventBus objects alive, naming each one and where it was
/// subscribed.
///
/// ```swift
/// @Test(.checksForLeaks) func closingTheScreenEndsItsSubscriptions() async { … }
///
/// @Suite(.checksForLeaks) struct ProfileTests { … }   // every test of the suite
/// ```
///
/// Each test case runs inside ``LeakCheck/report(waitingUpTo:isolation:during:)-(Duration,_,_)``; the issue it records
/// lists what leaked, at the `subscribe` call of the first leaked subscription (at the test when none leaked). In a
/// build that does not count live objects the test fails with a message saying how to turn counting on (see
/// ``LeakCheck``).
///
/// It catches what is still alive when the test has ended: objects kept by a reference cycle (a handler that captures
/// the screen that holds its token), by a global or a singleton, or by a task still running. What the test lets go of
/// is released with it, and is no leak: a screen that was never stopped but is released at the end of the test
/// cancels its token-owned subscriptions as they are released, and the test passes.
public struct LeakCheckTrait: TestTrait, SuiteTrait, TestScoping {
  /// How long the check waits, in seconds, after the test, for what it created to be released; see ``LeakCheck``.
  public var seconds: Double

  /// On a suite, every test in it is checked.
  public var isRecursive: Bool { true }

  /// Checks each test case, not the suite or test function around it.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs the test case and records an issue when the check fails.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    let report = try await LeakCheck.report(waitingUpToNanoseconds: LeakCheck.nanoseconds(seconds), during: function)
    if !report.isClean {
      Issue.record(Comment(rawValue: report.description), sourceLocation: Self.location(of: report, in: test))
    }
  }

  /// Where the issue points: the first leaked subscription's `subscribe` call, which the report names, or the test
  /// when no leaked object has a call site (an output or a broadcaster kept alive).
  static func location(of report: LeakReport, in test: Test) -> SourceLocation {
    let testLocation = test.sourceLocation
    guard let site = report.leakedObjects.lazy.compactMap(\.site).first else { return testLocation }
    let fileID = "\(site.fileID)"
    // A call site knows its file by `#fileID` only; in the test's own file, the test's path is the file's path.
    let filePath = fileID == testLocation.fileID ? testLocation.filePath : fileID
    return SourceLocation(fileID: fileID, filePath: filePath, line: site.line, column: 1)
  }
}

extension Trait where Self == LeakCheckTrait {
  /// Fails the test when EventBus objects it created are still alive at its end; see ``LeakCheckTrait``.
  public static var checksForLeaks: Self { LeakCheckTrait(seconds: 2) }

  /// Fails the test when EventBus objects it created are still alive `wait` after its end; see ``LeakCheckTrait``.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public static func checksForLeaks(waitingUpTo wait: Duration) -> Self {
    LeakCheckTrait(seconds: Double(wait.clampedNanoseconds) / 1e9)
  }

  /// Fails the test when EventBus objects it created are still alive `seconds` after its end; the `Duration` form,
  /// ``checksForLeaks(waitingUpTo:)-(Duration)``, replaces it.
  @available(*, deprecated, message: "pass the wait as a Duration: .checksForLeaks(waitingUpTo: .seconds(2))")
  public static func checksForLeaks(waitingUpTo seconds: Double) -> Self { LeakCheckTrait(seconds: seconds) }
}
