import Dispatch
import EventBus

/// Wakes the sending thread once every actor has applied every event of a batch.
///
/// Each actor reports once per batch, when its count of events applied reaches the next whole batch; the report
/// that completes the count of actors signals the waiting thread.
final class ActorBatchCompletion: Sendable {
  /// The events of one batch.
  let eventsPerBatch: Int
  private let responderCount: Int
  private let finishedResponders = LockedState(0)
  private let finished = DispatchSemaphore(value: 0)

  /// Creates a completion for `responderCount` actors and batches of `eventsPerBatch` events.
  init(responderCount: Int, eventsPerBatch: Int) {
    self.responderCount = responderCount
    self.eventsPerBatch = eventsPerBatch
  }

  /// Called by an actor that applied the whole batch.
  func responderFinishedBatch() {
    let completesBatch = finishedResponders.withLock { finished in
      finished += 1
      guard finished == responderCount else { return false }
      finished = 0
      return true
    }
    if completesBatch {
      finished.signal()
    }
  }

  /// Waits until every actor has applied the whole batch; `false` if that took longer than `timeout`, which means a
  /// contender lost events.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  func wait(timeout: Duration) -> Bool {
    let nanoseconds = Int(min(timeout.nanoseconds, Double(Int.max / 2)))
    return finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
  }
}
