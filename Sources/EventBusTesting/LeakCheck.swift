/// Runs code and reports the EventBus objects it created that are still alive when it returns.
///
/// A subscription whose token was never cancelled, an output kept by a closure, a broadcaster left connected: each
/// keeps objects of the library alive, and the check names them, with their event type and where they were
/// subscribed. In Swift Testing, put the `.checksForLeaks` trait (``LeakCheckTrait``) on a test or suite; in XCTest, call
/// `assertNoLeakedEventBusObjects(during:)`; both use ``report(waitingUpTo:isolation:during:)-(Duration,_,_)``.
///
/// The check counts objects created by the code's task and the tasks it starts (not `Task.detached`, nor threads of
/// its own), so tests running in parallel do not see each other's. When the code returns, the asynchronous check waits
/// a moment (two seconds at most, by default) for what is still alive to go: a delivery queued for another thread, or
/// a source's task ending after its broadcaster disconnected, releases its objects a little after the test lets go of
/// them. The destruction of the last one ends the wait, so a test that leaks nothing pays nothing. The synchronous
/// check looks at once.
///
/// Counting is compiled in only in debug builds of EventBus with its package trait `LiveObjects`. Enable it on the
/// dependency in your package's manifest:
///
/// ```text
/// .package(url: "https://github.com/eventbus/EventBus.git", branch: "main", traits: ["LiveObjects"]),
/// ```
///
/// Without it, ``isCountingEnabled`` is `false` and every report says the check could not run, and the trait and
/// `assertNoLeakedEventBusObjects(during:)` fail the test with that message rather than pass without looking.
public enum LeakCheck {
  /// Whether this build of EventBus counts live objects, which the check needs.
  public static var isCountingEnabled: Bool { LiveObjects.isEnabled }

  static let countingIsOffMessage =
    "EventBus leak check: this build does not count live objects, so nothing was checked. Enable the package trait "
    + "on the dependency, .package(url: …, traits: [\"LiveObjects\"]), and test a debug build."

  /// Runs `body` and reports what it created and left alive.
  ///
  /// - Parameter body: The code to check.
  /// - Returns: The objects `body` created that are still alive; see ``LeakReport/isClean``.
  public static func report(during body: () throws -> Void) rethrows -> LeakReport {
    let scope = LiveObjects.beginScope()
    do {
      try LiveObjects.$scope.withValue(scope, operation: body)
    } catch {
      _ = LiveObjects.endScope(scope)
      throw error
    }
    return makeReport(LiveObjects.endScope(scope))
  }

  /// Runs `body`, which may suspend, and reports what it and the tasks it started created and left alive, waiting up
  /// to 2 seconds for them to be released.
  ///
  /// - Parameters:
  ///   - isolation: The actor `body` runs on; the caller's by default.
  ///   - body: The code to check.
  /// - Returns: The objects `body` created that are still alive; see ``LeakReport/isClean``.
  public static func report(
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void
  ) async rethrows -> LeakReport {
    try await report(waitingUpToNanoseconds: nanoseconds(2), isolation: isolation, during: body)
  }

  /// Runs `body`, which may suspend, and reports what it and the tasks it started created and left alive.
  ///
  /// - Parameters:
  ///   - wait: How long to wait, once `body` has returned, for what it created to be released.
  ///   - isolation: The actor `body` runs on; the caller's by default.
  ///   - body: The code to check.
  /// - Returns: The objects `body` created that are still alive; see ``LeakReport/isClean``.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public static func report(
    waitingUpTo wait: Duration,
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void
  ) async rethrows -> LeakReport {
    try await report(waitingUpToNanoseconds: wait.clampedNanoseconds, isolation: isolation, during: body)
  }

  /// Runs `body`, which may suspend, and reports what it and the tasks it started created and left alive; the
  /// `Duration` form, ``report(waitingUpTo:isolation:during:)-(Duration,_,_)``, replaces it.
  ///
  /// - Parameters:
  ///   - seconds: How long to wait, once `body` has returned, for what it created to be released.
  ///   - isolation: The actor `body` runs on; the caller's by default.
  ///   - body: The code to check.
  /// - Returns: The objects `body` created that are still alive; see ``LeakReport/isClean``.
  @available(*, deprecated, message: "pass the wait as a Duration: report(waitingUpTo: .seconds(2))")
  public static func report(
    waitingUpTo seconds: Double,
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void
  ) async rethrows -> LeakReport {
    try await report(waitingUpToNanoseconds: nanoseconds(seconds), isolation: isolation, during: body)
  }

  static func report(
    waitingUpToNanoseconds nanoseconds: UInt64,
    isolation: isolated (any Actor)? = #isolation,
    during body: () async throws -> Void
  ) async rethrows -> LeakReport {
    let scope = LiveObjects.beginScope()
    do {
      try await LiveObjects.$scope.withValue(scope, operation: body, isolation: isolation)
    } catch {
      _ = LiveObjects.endScope(scope)
      throw error
    }
    await LiveObjects.waitForRelease(of: scope, timeoutNanoseconds: nanoseconds)
    return makeReport(LiveObjects.endScope(scope))
  }

  /// `seconds` as nanoseconds, 0 for a negative value or NaN, and at most a day.
  static func nanoseconds(_ seconds: Double) -> UInt64 {
    guard seconds > 0 else { return 0 }
    return UInt64(Swift.min(seconds, 86_400) * 1e9)
  }

  private static func makeReport(_ survivors: [LiveObjects.Survivor]) -> LeakReport {
    LeakReport(
      isCountingEnabled: LiveObjects.isEnabled,
      leakedObjects: survivors.map {
        LeakReport.LeakedObject(kind: $0.kind, eventType: TypeName.withoutModules($0.eventType), site: $0.site)
      })
  }
}
