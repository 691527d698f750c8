import Dispatch
import EventBus

/// The work an overload subscriber's handler does for each event: it spins on the clock for a fixed time, so that
/// every subscriber is slower than the sender.
///
/// Once the sender has stopped, the scenario skips the work (``skip()``): the handlers still receive every event that
/// waits, but the backlog drains in a fraction of the time it took to build, so the counts can be read without
/// waiting seconds for an unbounded subscriber's handler to spin through it.
final class BusyWork: Sendable {
  /// How long one event keeps a handler busy.
  let nanoseconds: UInt64
  private let isSkipped = LockedState(false)

  init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// Spins for ``nanoseconds``, unless the work is skipped.
  @inline(never)
  func perform() {
    guard !isSkipped.withLock({ $0 }) else { return }
    let end = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
    while DispatchTime.now().uptimeNanoseconds < end {}
  }

  /// Skips the work from now on.
  func skip() {
    isSkipped.withLock { $0 = true }
  }
}
