import Dispatch
import Foundation
import Testing

@testable import EventBus

/// Polls `condition` until it holds or `timeout` passes, blocking the calling thread. For a thread of the test's own
/// (inside ``runOnThread(stackSize:timeout:sourceLocation:_:)``, a handler, a queue's block), never for a test body.
///
/// A test body runs on one of the cooperative threads, as many as the machine has cores. A body that blocked one of
/// them until a `.main` or queue delivery arrived could wait for ever on a busy machine: the deliveries and the tests
/// that would release the main queue need those threads too. That is why this records an issue when called from a
/// task; a test body calls ``suspendUntil(isolation:timeout:_:)``, which suspends instead.
///
/// - Returns: Whether the condition held in time.
@discardableResult
func waitUntil(
  timeout: TimeInterval = 120, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) -> Bool {
  if withUnsafeCurrentTask(body: { $0 != nil }) {
    Issue.record(
      "waitUntil blocks a cooperative thread: a test body suspends with suspendUntil instead",
      sourceLocation: sourceLocation)
  }
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    if Date() >= deadline { return false }
    usleep(1000)
  }
  return true
}

/// Polls `condition` until it holds or `timeout` passes, suspending between polls, so work waiting for the main
/// actor can run meanwhile. For what the library offers no wait for; a condition that never holds records an issue
/// at the caller, saying how long it waited.
///
/// - Returns: Whether the condition held in time.
@discardableResult
func suspendUntil(
  isolation: isolated (any Actor)? = #isolation,
  timeout: TimeInterval = 120,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () async -> Bool
) async -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while await !condition() {
    if Date() >= deadline {
      Issue.record(
        "waited \(Int(timeout)) s for the condition polled here; it never held", sourceLocation: sourceLocation)
      return false
    }
    try? await Task.sleep(nanoseconds: 1_000_000)
  }
  return true
}

/// Expects that no output, entry or lane for events of `eventType` is alive (G6).
///
/// Suspends a little first if need be, because a block a `DispatchQueue` has not run yet may still hold an entry. Give
/// every test that calls this its own event type, so parallel tests don't disturb the count.
func expectNoLiveObjects(
  for eventType: Any.Type,
  timeout: TimeInterval = 120,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let freed = await suspendUntil(timeout: timeout, sourceLocation: sourceLocation) {
    LiveObjects.total(for: eventType) == 0
  }
  #expect(
    freed, "leak: \(liveObjectsDescription(for: eventType)) still alive after \(Int(timeout)) s",
    sourceLocation: sourceLocation)
}

/// What `LiveObjects` counts for `eventType`, for failure messages.
func liveObjectsDescription(for eventType: Any.Type) -> String {
  ["Output", "Output.Entry", "DeliveryLane"]
    .map { "\($0)<\(eventType)>: \(LiveObjects.count($0, for: eventType))" }
    .joined(separator: ", ")
}

/// Marks the main queue, so code can ask whether it runs there. On Linux the main actor's jobs run on the main queue,
/// but not on the main thread: `dispatch_main()` ends that thread and a worker drains the queue.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the caller runs on the main queue (where the main actor's work runs).
var isOnMainQueue: Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// Returns once the main queue has run everything queued on it before this call, including the deliveries that
/// `.main` subscriptions queued: each subscriber's events are handed to the main queue in order.
func mainQueueRoundTrip() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.main.async { continuation.resume() }
  }
}
