import Dispatch

/// A slow subscriber of `overload`, on a serial queue of its own: each event costs its handler the busy work.
///
/// `@unchecked Sendable`: its count is read and written on `queue` only, where its handler runs, one event at a time.
final class QueueSubscriber: @unchecked Sendable {
  /// The queue its handler runs on, one of its own: serial, as `DispatchQueue(label:)` makes it.
  let queue: DispatchQueue
  private let work: BusyWork
  private var deliveries = 0

  init(index: Int, work: BusyWork) {
    queue = DispatchQueue(label: "Bench overload subscriber \(index)")
    self.work = work
  }

  /// Handles one event: the busy work, then a count.
  @inline(never)
  func handle(_ event: OverloadEvent) {
    work.perform()
    deliveries &+= 1
  }

  /// Events handled so far, read on the subscriber's queue.
  var delivered: Int { queue.sync { deliveries } }
}

/// A slow subscriber of `overload-main`, on the main actor: each event costs its handler the busy work there.
@MainActor
final class MainActorSubscriber {
  private let work: BusyWork
  /// Events handled so far.
  private(set) var delivered = 0

  init(work: BusyWork) {
    self.work = work
  }

  /// Handles one event: the busy work, then a count.
  @inline(never)
  func handle(_ event: OverloadEvent) {
    work.perform()
    delivered &+= 1
  }
}
