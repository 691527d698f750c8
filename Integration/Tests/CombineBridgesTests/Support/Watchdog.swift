import Foundation
import Testing

/// Runs `body` on a thread of its own and waits for it, failing the test instead of hanging if it does not finish
/// within `timeout` seconds (a deadlock).
///
/// - Returns: Whether `body` finished in time.
@discardableResult
func withWatchdog(
  timeout: TimeInterval = 60,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Void
) -> Bool {
  let finished = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    finished.signal()
  }
  thread.start()
  let inTime = finished.wait(timeout: .now() + timeout) == .success
  #expect(inTime, "watchdog: not finished within \(timeout) s (deadlock?)", sourceLocation: sourceLocation)
  return inTime
}
