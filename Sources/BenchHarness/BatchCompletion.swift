import Dispatch

/// Wakes the sending thread once every responder has handled the last event of a batch.
///
/// Each responder reports the batch's last event once; the report that completes the count signals the waiting
/// thread. Per-subscriber order, which every contender keeps, makes that event the responder's last delivery of the
/// batch.
@MainActor
public final class BatchCompletion {
  private let responderCount: Int
  private var finishedResponders = 0
  private nonisolated let finished = DispatchSemaphore(value: 0)

  /// Creates a completion for `responderCount` responders.
  public init(responderCount: Int) {
    self.responderCount = responderCount
  }

  /// Called by a responder that handled the last event of the batch.
  func responderFinishedBatch() {
    finishedResponders += 1
    if finishedResponders == responderCount {
      finishedResponders = 0
      finished.signal()
    }
  }

  /// Waits until every responder has handled the last event of the batch; `false` if that took longer than
  /// `timeout`, which means a contender lost events.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public nonisolated func wait(timeout: Duration) -> Bool {
    let nanoseconds = Int(min(timeout.nanoseconds, Double(Int.max / 2)))
    return finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
  }
}
