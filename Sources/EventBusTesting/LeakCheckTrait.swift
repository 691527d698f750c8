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
/// Each test case runs inside ``LeakCheck/report(waitingUpTo:isolation:during:)``; the issue it records lists what leaked. In a
/// build that does not count live objects the test fails with a message saying how to turn counting on (see
/// ``LeakCheck``).
public struct LeakCheckTrait: TestTrait, SuiteTrait, TestScoping {
  /// How long the check waits, after the test, for what it created to be released; see ``LeakCheck``.
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
    let report = try await LeakCheck.report(waitingUpTo: seconds, during: function)
    if !report.isClean {
      Issue.record(Comment(rawValue: report.description), sourceLocation: test.sourceLocation)
    }
  }
}

extension Trait where Self == LeakCheckTrait {
  /// Fails the test when EventBus objects it created are still alive at its end; see ``LeakCheckTrait``.
  public static var checksForLeaks: Self { LeakCheckTrait(seconds: 2) }

  /// Fails the test when EventBus objects it created are still alive `seconds` after its end; see ``LeakCheckTrait``.
  public static func checksForLeaks(waitingUpTo seconds: Double) -> Self { LeakCheckTrait(seconds: seconds) }
}
