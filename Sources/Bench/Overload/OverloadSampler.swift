import Dispatch
import EventBus
import Foundation

/// Watches an overload run from a thread of its own: every millisecond it reads how many events wait for each
/// subscriber and, where the platform tells it, the heap in use, and keeps the largest of each.
///
/// It allocates nothing while it watches, so its own memory is no part of the heap it reads: the thread is started,
/// and waits, before the run reads the heap it starts from (``start()``).
final class OverloadSampler: Sendable {
  /// The largest readings so far.
  struct Peaks: Equatable, Sendable {
    /// The most events waiting for one subscriber.
    var waiting = 0
    /// The most bytes in use on the heap; `nil` where the platform cannot tell.
    var heapBytes: Int?

    /// Takes in one reading of each.
    mutating func note(waiting: Int, heapBytes: Int?) {
      self.waiting = max(self.waiting, waiting)
      if let heapBytes {
        self.heapBytes = max(self.heapBytes ?? heapBytes, heapBytes)
      }
    }
  }

  /// How long the sampler sleeps between readings.
  static let interval = DispatchTimeInterval.milliseconds(1)

  private let contender: OverloadContender
  private let readsHeap: Bool
  private let peaks = LockedState(Peaks())
  private let go = DispatchSemaphore(value: 0)
  private let ready = DispatchSemaphore(value: 0)
  private let stopping = DispatchSemaphore(value: 0)
  private let stopped = DispatchSemaphore(value: 0)

  /// A sampler of `contender`'s subscriptions, and of the heap if `readsHeap`; its thread starts at once and waits
  /// for ``start()``.
  init(_ contender: OverloadContender, readsHeap: Bool) {
    self.contender = contender
    self.readsHeap = readsHeap
    let thread = Thread { [self] in watch() }
    thread.name = "Bench overload sampler"
    thread.start()
    ready.wait()
  }

  /// Starts reading, every ``interval`` until ``stop()``.
  func start() {
    go.signal()
  }

  /// Takes in a reading made by the sender.
  func note(waiting: Int, heapBytes: Int? = nil) {
    peaks.withLock { $0.note(waiting: waiting, heapBytes: heapBytes) }
  }

  /// Stops reading, once the thread has made one last reading, and returns the peaks. The thread ends, whether or not
  /// it was started.
  func stop() -> Peaks {
    stopping.signal()
    go.signal()
    stopped.wait()
    return peaks.withLock { $0 }
  }

  private func watch() {
    ready.signal()
    go.wait()
    repeat {
      let waiting = contender.mostWaiting
      let heapBytes = readsHeap ? HeapUsage.bytesInUse() : nil
      peaks.withLock { $0.note(waiting: waiting, heapBytes: heapBytes) }
    } while stopping.wait(timeout: .now() + Self.interval) == .timedOut
    stopped.signal()
  }
}
