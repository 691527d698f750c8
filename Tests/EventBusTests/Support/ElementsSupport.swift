import Foundation
import Testing

/// `base` scaled by `EVENTBUS_STRESS_SCALE` (CI lowers it under the sanitizers), at least 1.
func stressIterations(_ base: Int) -> Int {
  let scale = ProcessInfo.processInfo.environment["EVENTBUS_STRESS_SCALE"].flatMap(Double.init) ?? 1
  return max(1, Int(Double(base) * scale))
}

/// Polls `condition` on the main actor, letting the main queue run in between, until it holds or `timeout` passes.
/// A condition that never holds records an issue at the caller, saying how long it waited.
@MainActor
func eventually(
  timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation, _ condition: @MainActor () -> Bool
) async -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    guard Date() < deadline else {
      Issue.record(
        "waited \(Int(timeout)) s for the condition polled here; it never held", sourceLocation: sourceLocation)
      return false
    }
    try? await Task.sleep(nanoseconds: 1_000_000)
  }
  return true
}
