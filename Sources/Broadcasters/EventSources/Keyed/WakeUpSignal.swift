import EventBus

/// Wakes one waiting task, or the next one to wait if none is waiting: signals that arrive together count once.
///
/// The keyed source's driver waits on it when it has nothing to do; every change of wanted keys, and the end of a
/// session, signals it.
final class WakeUpSignal: Sendable {
  private struct State {
    var isPending = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = LockedState(State())

  /// Wakes the waiting task, or lets the next ``wait()`` return at once.
  func signal() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard let waiter = replacing(&state.waiter, with: nil) else {
        state.isPending = true
        return nil
      }
      return waiter
    }
    waiter?.resume()
  }

  /// Returns after the next signal, or at once if one came since the last `wait`. One task waits at a time.
  func wait() async {
    await withCheckedContinuation { continuation in
      let resumesNow = state.withLock { state in
        guard state.isPending else {
          state.waiter = continuation
          return false
        }
        state.isPending = false
        return true
      }
      if resumesNow { continuation.resume() }
    }
  }
}
