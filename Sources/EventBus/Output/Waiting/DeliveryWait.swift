/// One call of `Output.waitUntilDelivered()`: how many consumers it waits for, how many have passed what it waits
/// for, and the task to resume once all have, or once the task is cancelled.
///
/// The consumers (the holder of an output's delivery, a lane's block, an actor responder's mailbox) keep the wait in
/// a ``DeliveryWaitList`` under their own lock and report with ``arrive(_:)`` after unlocking it; the wait resumes its
/// task after unlocking its own. So no continuation is resumed while a lock is held, and a consumer pays for a wait
/// only while one is registered with it.
@usableFromInline
final class DeliveryWait: Sendable {
  private struct State: Sendable {
    var expected = 0
    var arrived = 0
    var isCancelled = false
    var continuation: CheckedContinuation<Void, Never>?

    var isOver: Bool { isCancelled || arrived >= expected }
  }

  private let state = LockedState(State())

  init() {}

  /// Adds `count` consumers to wait for. Their arrivals may come before this call: only ``suspend()`` compares.
  func expect(_ count: Int) {
    state.withLock { $0.expected += count }
  }

  /// Whether every consumer expected so far has arrived.
  var hasArrived: Bool {
    state.withLock { $0.arrived >= $0.expected }
  }

  var isCancelled: Bool {
    state.withLock { $0.isCancelled }
  }

  /// The consumers that kept `waits` passed what each waits for. Called with no lock held.
  @usableFromInline
  static func arrive(_ waits: [DeliveryWait]?) {
    for wait in waits ?? [] {
      wait.arrive()
    }
  }

  private func arrive() {
    let continuation = state.withLock { state in
      state.arrived += 1
      return state.isOver ? state.continuation.take() : nil
    }
    continuation?.resume()
  }

  /// Ends the wait at once: its task was cancelled. The consumers still keep it until the task removes it.
  func cancel() {
    let continuation = state.withLock { state in
      state.isCancelled = true
      return state.continuation.take()
    }
    continuation?.resume()
  }

  /// Suspends until every consumer expected has arrived, or the wait is cancelled.
  func suspend() async {
    await withCheckedContinuation { continuation in
      let isOver = state.withLock { state in
        guard !state.isOver else { return true }
        state.continuation = continuation
        return false
      }
      if isOver {
        continuation.resume()
      }
    }
  }
}
