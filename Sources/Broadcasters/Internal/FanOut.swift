import EventBus

/// What the sinks of a broadcaster send into: its output, which connection is live, and the counters.
///
/// Kept apart from the broadcaster so that nothing a source holds (its sinks) refers back to the broadcaster: a
/// broadcaster released by its owner deinitialises, stops its source, and the source drops its sinks.
final class FanOut<Event: Sendable>: Sendable {
  private struct State: Sendable {
    /// The connection whose sink may deliver; `0` while none may.
    var liveConnection: UInt64 = 0
    var lastConnection: UInt64 = 0
    var upstreamEventCount = 0
    var decodeFailureCount = 0
    var onDecodeFailure: (@Sendable (DecodeFailure) -> Void)?
  }

  let output = Output<Event>()
  private let state = LockedState(State())

  init() {
    LiveObjects.created("Broadcaster.FanOut", for: Event.self, object: ObjectIdentifier(self))
  }

  deinit {
    LiveObjects.destroyed("Broadcaster.FanOut", for: Event.self, object: ObjectIdentifier(self))
  }

  /// Opens a new connection and returns its identifier; its sink delivers until ``closeConnection()``.
  func openConnection() -> UInt64 {
    let connection = state.withLock { state in
      state.lastConnection += 1
      state.liveConnection = state.lastConnection
      return state.liveConnection
    }
    // One connection at most is open at a time, so the fan-out names it for a leak check.
    LiveObjects.created("Broadcaster.Connection", for: Event.self, object: ObjectIdentifier(self))
    return connection
  }

  /// Makes the live connection's sink ignore everything from now on.
  func closeConnection() {
    let wasOpen = state.withLock { state in
      defer { state.liveConnection = 0 }
      return state.liveConnection != 0
    }
    if wasOpen {
      LiveObjects.destroyed("Broadcaster.Connection", for: Event.self, object: ObjectIdentifier(self))
    }
  }

  func send(_ event: Event, from connection: UInt64) {
    let isLive = state.withLock { state in
      guard state.liveConnection == connection else { return false }
      state.upstreamEventCount += 1
      return true
    }
    if isLive {
      output.send(event)
    }
  }

  func report(_ failure: DecodeFailure, from connection: UInt64) {
    let hook = state.withLock { state -> (@Sendable (DecodeFailure) -> Void)? in
      guard state.liveConnection == connection else { return nil }
      state.decodeFailureCount += 1
      return state.onDecodeFailure
    }
    hook?(failure)
  }

  var upstreamEventCount: Int { state.withLock { $0.upstreamEventCount } }

  var decodeFailureCount: Int { state.withLock { $0.decodeFailureCount } }

  var onDecodeFailure: (@Sendable (DecodeFailure) -> Void)? {
    get { state.withLock { $0.onDecodeFailure } }
    set {
      let old = state.withLock { replacing(&$0.onDecodeFailure, with: newValue) }
      _ = old  // released outside the lock: the closure may capture objects with a deinit
    }
  }
}
