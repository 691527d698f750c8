/// A keyed source's session and keys, decided under its lock and carried out by its one driver task.
///
/// Subscribers come and go on any thread; they only change which keys are *wanted* and wake the driver. The driver
/// asks ``nextAction()`` what to do, does it with no lock held, reports the result, and asks again: open a session,
/// attach a wanted key, detach a key no longer wanted, report the session connected once every wanted key is
/// attached, close the session after its last key or after it was lost, wait out the backoff. One driver at a time, so
/// the upstream never sees two sessions, or an attach and a detach at once.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
struct KeyedSourceStateMachine<Key: Hashable & Sendable, Sink: Sendable>: Sendable {
  /// What the driver does next, with no lock held.
  enum Action {
    /// Open session `number`, then report ``opened(session:)`` or ``openFailed(error:backoff:randomFraction:)``.
    case open(session: Int)
    /// Attach `key` with `sink`, then report ``attached(_:generation:session:)``.
    case attach(Key, Sink, generation: UInt64)
    /// Detach `key`, then report ``detached(_:session:)``.
    case detach(Key)
    /// Report the change to the source's observer.
    case report(UpstreamChange)
    /// Close the session the driver holds.
    case close
    /// Wait this long before the next attempt.
    case sleep(Duration)
    /// Nothing to do until something changes: wait to be woken.
    case wait
    /// No key is wanted and no session is open: the driver ends.
    case exit
  }

  private struct Wanted: Sendable {
    var sink: Sink
    var generation: UInt64
  }

  private enum Phase: Sendable {
    /// No session: the driver opens one if a key is wanted.
    case closed
    /// Session `number` is live, with these keys attached (each with the generation of the sink it was given).
    case open(number: Int, attached: [Key: UInt64], connected: Bool)
    /// The session ended or failed: the driver closes it.
    case ended
  }

  private var wanted: [Key: Wanted] = [:]
  private var phase = Phase.closed
  private var lastSession = 0
  private var lastGeneration: UInt64 = 0
  private var isDriving = false
  private var retryDelay: Duration?
  /// A connected session was lost and none has connected since: the next connection closes a gap.
  private var lossPending = false
  /// Sessions in a row that failed before connecting.
  private var failures = 0
  private(set) var statistics = KeyedSourceStatistics()

  /// Whether subscribers want `key` now.
  func isWanted(_ key: Key) -> Bool { wanted[key] != nil }

  /// `key` has its first subscriber, whose events go to `sink`. Returns the generation that ``unwant(_:generation:)``
  /// takes, and whether the caller must start a driver.
  mutating func want(_ key: Key, sink: Sink) -> (generation: UInt64, startsDriver: Bool) {
    lastGeneration += 1
    wanted[key] = Wanted(sink: sink, generation: lastGeneration)
    let startsDriver = !isDriving
    isDriving = true
    return (lastGeneration, startsDriver)
  }

  /// The last subscriber of `key` left. Returns the sink the key held, to release after unlocking, or `nil` if the key
  /// was wanted again since (a later generation).
  mutating func unwant(_ key: Key, generation: UInt64) -> Sink? {
    guard let entry = wanted[key], entry.generation == generation else { return nil }
    wanted[key] = nil
    return entry.sink
  }

  /// The driver's next step.
  mutating func nextAction() -> Action {
    switch phase {
    case .closed:
      if wanted.isEmpty {
        isDriving = false
        retryDelay = nil
        // The next subscribers were not there for what was missed, and the next session starts a fresh backoff.
        lossPending = false
        failures = 0
        return .exit
      }
      if let delay = retryDelay {
        retryDelay = nil
        return .sleep(delay)
      }
      lastSession += 1
      return .open(session: lastSession)
    case .ended:
      phase = .closed
      statistics.openSessions = 0
      return .close
    case .open(let number, let attached, let connected):
      // A key no longer wanted is detached, also before the session closes. So is a key attached with a sink that is
      // no longer its subscribers' (its broadcaster disconnected and connected again meanwhile); it is attached again
      // with the current sink.
      if let stale = attached.first(where: { wanted[$0.key]?.generation != $0.value }) {
        return .detach(stale.key)
      }
      if wanted.isEmpty {
        phase = .closed
        statistics.openSessions = 0
        statistics.isConnected = false
        return .close
      }
      if let missing = wanted.first(where: { attached[$0.key] == nil }) {
        return .attach(missing.key, missing.value.sink, generation: missing.value.generation)
      }
      guard connected else {
        phase = .open(number: number, attached: attached, connected: true)
        statistics.isConnected = true
        statistics.connectCount += 1
        failures = 0
        let afterLoss = lossPending
        if afterLoss {
          statistics.reconnectCount += 1
          lossPending = false
        }
        return .report(.connected(afterLoss: afterLoss))
      }
      return .wait
    }
  }

  /// Session `number` opened.
  mutating func opened(session number: Int) {
    guard case .closed = phase, number == lastSession else { return }
    phase = .open(number: number, attached: [:], connected: false)
    statistics.openSessions = 1
  }

  /// The session could not be opened. Returns the change to report; the driver waits before the next attempt.
  mutating func openFailed(error: any Error, backoff: ReconnectBackoff, randomFraction: Double) -> UpstreamChange {
    statistics.failedAttemptCount += 1
    failures += 1
    let delay = backoff.delay(afterFailures: failures, randomFraction: randomFraction)
    retryDelay = delay
    return .attemptFailed(error: error, retryingIn: delay)
  }

  /// `key` is attached to session `number` with the sink of `generation`.
  mutating func attached(_ key: Key, generation: UInt64, session number: Int) {
    guard case .open(number, var attached, let connected) = phase else { return }
    attached[key] = generation
    phase = .open(number: number, attached: attached, connected: connected)
    statistics.attachCount += 1
    statistics.attachedKeys = attached.count
  }

  /// `key` is detached from session `number`.
  mutating func detached(_ key: Key, session number: Int) {
    guard case .open(number, var attached, let connected) = phase else { return }
    attached[key] = nil
    phase = .open(number: number, attached: attached, connected: connected)
    statistics.detachCount += 1
    statistics.attachedKeys = attached.count
  }

  /// Session `number` ended (its connection dropped) or failed (an attach or detach threw). Returns the change to
  /// report, or `nil` if that session is no longer the live one (the driver closed it on purpose).
  mutating func sessionEnded(
    session number: Int,
    error: (any Error)?,
    backoff: ReconnectBackoff,
    randomFraction: Double
  ) -> UpstreamChange? {
    guard case .open(number, _, let connected) = phase else { return nil }
    phase = .ended
    statistics.isConnected = false
    statistics.attachedKeys = 0
    if connected {
      statistics.lossCount += 1
      lossPending = true
      failures = 0
      let delay = backoff.delay(afterFailures: 0, randomFraction: randomFraction)
      retryDelay = delay
      return .lost(error: error, retryingIn: delay)
    }
    statistics.failedAttemptCount += 1
    failures += 1
    let delay = backoff.delay(afterFailures: failures, randomFraction: randomFraction)
    retryDelay = delay
    return .attemptFailed(error: error, retryingIn: delay)
  }
}
