import Dispatch
import Foundation

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
  /// The batches completed, which the waiting thread watches while it spins.
  private nonisolated let completed = BatchCount()

  /// Creates a completion for `responderCount` responders.
  public init(responderCount: Int) {
    self.responderCount = responderCount
  }

  /// Called by a responder that handled the last event of the batch.
  func responderFinishedBatch() {
    finishedResponders += 1
    if finishedResponders == responderCount {
      finishedResponders = 0
      // Signalled first: a waiter that sees the count takes the signal without blocking.
      finished.signal()
      completed.increment()
    }
  }

  /// Waits until every responder has handled the last event of the batch; `false` if that took longer than
  /// `timeout`, which means a contender lost events.
  ///
  /// Spins first, for up to ``spinLimit`` if the last wait took less, watching the count of completed batches, and
  /// only then blocks. The sender's wait is the benchmark's, not the contenders': no app blocks the thread that sends
  /// until the main actor has delivered. A blocked thread is woken by the kernel, which on a virtual machine with idle virtual processors
  /// costs tens of microseconds a burst, the same for every contender; spinning keeps that out of the figures, which
  /// then measure the delivery. The main thread's own wakeup, which an app does pay, stays in.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public nonisolated func wait(timeout: Duration) -> Bool {
    let start = DispatchTime.now().uptimeNanoseconds
    if Self.spinLimit > 0 && completed.lastWaitWasShort {
      let spinEnd = start &+ Self.spinLimit
      while !completed.hasUnseenBatch && DispatchTime.now().uptimeNanoseconds < spinEnd {}
    }
    let nanoseconds = Int(min(timeout.nanoseconds, Double(Int.max / 2)))
    guard finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return false }
    completed.lastWaitWasShort = DispatchTime.now().uptimeNanoseconds &- start < Self.spinLimit
    completed.see()
    return true
  }

  /// How long, in nanoseconds, ``wait(timeout:)`` spins before it blocks: 1 ms, and only after a wait that took less,
  /// so that a contender whose batches take longer gets a sleeping sender rather than one that spins beside it for
  /// nothing, which on a shared machine can take the main thread's processor. None on a single processor, and none
  /// with `BENCH_BLOCKING_WAIT` set, for a profiler, which would count the spin's instructions.
  nonisolated static let spinLimit: UInt64 = {
    guard ProcessInfo.processInfo.activeProcessorCount > 1,
      ProcessInfo.processInfo.environment["BENCH_BLOCKING_WAIT"] == nil
    else { return 0 }
    return 1_000_000
  }()
}

/// The batches completed and the batches the waiting thread has seen, under a lock of their own.
private final class BatchCount: @unchecked Sendable {
  private let lock = NSLock()
  private var completed = 0
  private var seen = 0
  /// Whether the last wait ended within the spin limit. Only the waiting thread reads and writes it.
  var lastWaitWasShort = true

  var hasUnseenBatch: Bool {
    lock.lock()
    defer { lock.unlock() }
    return completed > seen
  }

  func increment() {
    lock.lock()
    completed += 1
    lock.unlock()
  }

  func see() {
    lock.lock()
    seen += 1
    lock.unlock()
  }
}
