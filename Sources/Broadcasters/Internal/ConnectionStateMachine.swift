import EventBus

/// A broadcaster's connection lifecycle, decided under its lock and carried out by one thread at a time.
///
/// Every change of membership asks the machine what to do. The first thread to ask becomes the *reconciler*: it
/// reads whether anyone is subscribed, starts or stops the source with no lock held, and asks again until the
/// connection matches the membership. Threads that ask while a reconciler runs only leave a note (`needsReview`)
/// and return, so start and stop never overlap (never two live upstream connections), nothing waits for a lock
/// while a source starts or stops, and a subscribe from inside the source's `start` or from a handler returns at
/// once instead of deadlocking.
struct ConnectionStateMachine: Sendable {
  /// What the reconciler does next, with no lock held.
  enum Action {
    /// Open a connection, start the source, then report ``didStart(_:)``.
    case start
    /// Close the connection, run this stop action, then report ``didStop()``.
    case stop(@Sendable () -> Void)
    /// The connection matched, but the membership changed meanwhile: read it again.
    case recheck
    /// The connection matches the membership; the caller is no longer the reconciler.
    case done
  }

  /// Stops the live connection; `nil` while disconnected, or while the reconciler is starting or stopping it.
  private var stopLiveConnection: (@Sendable () -> Void)?
  private var isReconciling = false
  private var needsReview = false
  private(set) var connectCount = 0
  private(set) var disconnectCount = 0

  var isConnected: Bool { stopLiveConnection != nil }

  /// Records a change of membership. Returns `true` when the caller has become the reconciler and must call
  /// ``nextAction(wantsConnection:)`` until it returns `.done`.
  mutating func membershipChanged() -> Bool {
    guard !isReconciling else {
      needsReview = true
      return false
    }
    isReconciling = true
    return true
  }

  /// The reconciler's next step, given whether anyone is subscribed (read after the last step finished).
  mutating func nextAction(wantsConnection: Bool) -> Action {
    switch (wantsConnection, stopLiveConnection) {
    case (true, nil):
      return .start
    case (false, let stop?):
      stopLiveConnection = nil
      return .stop(stop)
    default:
      guard needsReview else {
        isReconciling = false
        return .done
      }
      needsReview = false
      return .recheck
    }
  }

  /// The source started; `stop` ends the connection.
  mutating func didStart(_ stop: @escaping @Sendable () -> Void) {
    stopLiveConnection = stop
    connectCount += 1
  }

  /// The source stopped.
  mutating func didStop() {
    disconnectCount += 1
  }

  /// The broadcaster is deinitialising (so no reconciler runs: each holds a strong reference to it). Returns the
  /// live connection's stop action, if any.
  mutating func release() -> (@Sendable () -> Void)? {
    if stopLiveConnection != nil {
      disconnectCount += 1
    }
    return replacing(&stopLiveConnection, with: nil)
  }
}
