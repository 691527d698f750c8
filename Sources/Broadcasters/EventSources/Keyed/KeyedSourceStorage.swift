import EventBus

/// What a keyed source's per-key sources share: the state machine and the driver that carries out its decisions.
///
/// Kept apart from ``KeyedSource`` so that nothing a key's broadcaster holds refers back to the source that holds the
/// broadcasters: a source released by its owner releases its broadcasters, which detach their keys.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
final class KeyedSourceStorage<Upstream: KeyedUpstream>: Sendable {
  typealias Machine = KeyedSourceStateMachine<Upstream.Key, EventSink<Upstream.Event>>

  private let upstream: Upstream
  private let backoff: ReconnectBackoff
  private let onChange: (@Sendable (UpstreamChange) -> Void)?
  private let machine = LockedState(Machine())
  private let wakeUp = WakeUpSignal()

  init(upstream: Upstream, backoff: ReconnectBackoff, onChange: (@Sendable (UpstreamChange) -> Void)?) {
    self.upstream = upstream
    self.backoff = backoff
    self.onChange = onChange
  }

  var statistics: KeyedSourceStatistics {
    machine.withLock { $0.statistics }
  }

  /// A key's broadcaster connected: its first subscriber arrived.
  func want(_ key: Upstream.Key, sink: EventSink<Upstream.Event>) -> UInt64 {
    let (generation, startsDriver) = machine.withLock { $0.want(key, sink: sink) }
    if startsDriver {
      Task { await self.drive() }
    } else {
      wakeUp.signal()
    }
    return generation
  }

  /// A key's broadcaster disconnected: its last subscriber left.
  func unwant(_ key: Upstream.Key, generation: UInt64) {
    let released = machine.withLock { $0.unwant(key, generation: generation) }
    // The sink is released here, after unlocking: it may hold the last reference to the key's fan-out.
    if released != nil {
      wakeUp.signal()
    }
  }

  /// Carries out the machine's decisions until no key is wanted and the session is closed. One driver runs at a time:
  /// the machine starts a new one only after the previous one has decided to exit.
  private func drive() async {
    var live: (number: Int, session: Upstream.Session)?
    while true {
      let action = machine.withLock { $0.nextAction() }
      switch action {
      case .open(let number):
        do {
          let session = try await upstream.openSession()
          live = (number, session)
          machine.withLock { $0.opened(session: number) }
          Task { await self.watch(session, number: number) }
        } catch {
          let randomFraction = Double.random(in: 0..<1)
          let change = machine.withLock {
            $0.openFailed(error: error, backoff: backoff, randomFraction: randomFraction)
          }
          onChange?(change)
        }
      case .attach(let key, let sink, let generation):
        guard let (number, session) = live else { continue }
        do {
          try await upstream.attach(key, to: session, emitting: sink)
          machine.withLock { $0.attached(key, generation: generation, session: number) }
        } catch {
          sessionEnded(number, error: error)
        }
      case .detach(let key):
        guard let (number, session) = live else { continue }
        do {
          try await upstream.detach(key, from: session)
          machine.withLock { $0.detached(key, session: number) }
        } catch {
          sessionEnded(number, error: error)
        }
      case .report(let change):
        onChange?(change)
      case .close:
        if let (_, session) = live {
          live = nil
          await upstream.closeSession(session)
        }
      case .sleep(let delay):
        try? await Task.sleep(for: delay)
      case .wait:
        await wakeUp.wait()
      case .exit:
        return
      }
    }
  }

  /// Waits for session `number` to end, and reports it.
  private func watch(_ session: Upstream.Session, number: Int) async {
    var failure: (any Error)?
    do {
      try await upstream.waitForEnd(of: session)
    } catch {
      failure = error
    }
    sessionEnded(number, error: failure)
  }

  private func sessionEnded(_ number: Int, error: (any Error)?) {
    let randomFraction = Double.random(in: 0..<1)
    let change = machine.withLock {
      $0.sessionEnded(session: number, error: error, backoff: backoff, randomFraction: randomFraction)
    }
    guard let change else { return }
    onChange?(change)
    wakeUp.signal()
  }
}
