import EventBus

/// Shares one upstream subscription among every subscriber: connects to its ``EventSource`` when the first
/// subscriber arrives and disconnects when the last one is gone.
///
/// N screens that listen to the same source cost one upstream subscription and one decode per upstream event, not N.
/// Subscribe exactly as to an `Output`: a broadcaster is an `EventStream`, so responder-owned and token-owned
/// subscriptions, delivery contexts, operators and `values` all work the same way, with the same guarantees.
///
/// ```swift
/// let ticks = Broadcaster(source: TimerSource(interval: .seconds(1)))
/// ticks.subscribe(clockView) { view, date in view.show(date) }   // first subscriber: the timer starts
/// let token = ticks.subscribe { date in log(date) }               // same timer
/// token.cancel()
/// ```
///
/// ## Connection (G9)
/// The broadcaster keeps exactly one upstream connection while it has a subscriber, none when it has none, and never
/// two at once, under concurrent subscribe, cancel and deinit too: one thread at a time starts or stops the source,
/// with no lock held, and re-reads the membership until the connection matches it. A subscribe from inside the
/// source's `start`, or from a handler, returns at once. ``isConnected``, ``connectCount`` and ``disconnectCount``
/// show what happened.
///
/// ## When a subscriber is gone
/// A cancelled subscription, and a token-owned subscription whose token is released, leave at once: if it was the
/// last, the source is stopped before `cancel()` returns (or, if another thread is starting or stopping the source at
/// that moment, by that thread as soon as it finishes).
///
/// A responder that deinitialises is noticed later. Swift has no portable way to be told when an arbitrary object
/// deinitialises (Linux has no associated objects), and the subscription holds its responder weakly, so the
/// broadcaster learns that the responder is gone only when it next touches that subscription: when the next upstream
/// event is fanned out, when a later subscribe makes the output prune (it prunes when its subscription count reaches
/// a threshold: 64, then twice the number that survived the previous prune), or when ``pruneDeadSubscribers()`` is
/// called. Only then, if it was the last subscriber, does the broadcaster disconnect; until then the upstream
/// subscription stays open. A quiet source, such as the keyboard while no text field is active, may therefore keep
/// its observer long after the last screen went away. To disconnect as soon as a responder goes, cancel its
/// subscription in its `deinit`, hold a token-owned subscription instead, or call ``pruneDeadSubscribers()``
/// afterwards (for example when a screen is dismissed). ``subscriberCount`` only counts: it never disconnects.
///
/// ## Lifetime
/// Subscribers do not keep the broadcaster alive; keep it where its subscribers can reach it (a dependency container,
/// an app-wide property). A broadcaster that is released stops its source and frees everything: nothing the source
/// holds refers back to it.
public final class Broadcaster<Event: Sendable>: EventStream, Sendable {
  let fanOut: FanOut<Event>
  private let machine: LockedState<ConnectionStateMachine>
  /// Starts the source with a sink and returns how to stop that connection.
  private let startSource: @Sendable (EventSink<Event>) -> @Sendable () -> Void

  /// Creates a broadcaster over `source`. Nothing is started until the first subscriber arrives.
  ///
  /// - Parameter source: The upstream to share.
  public init<Source: EventSource>(source: Source) where Source.Event == Event {
    fanOut = FanOut()
    machine = LockedState(ConnectionStateMachine())
    startSource = { sink in
      let connection = source.start(emitting: sink)
      return { source.stop(connection) }
    }
    // Weak: the output belongs to the broadcaster, and a strong reference back would keep it alive forever.
    fanOut.output.setMembershipObserver { [weak self] in
      self?.reconcile()
    }
    LiveObjects.created("Broadcaster", for: Event.self, object: ObjectIdentifier(self))
  }

  deinit {
    fanOut.output.setMembershipObserver(nil)
    if let stop = machine.withLock({ $0.release() }) {
      fanOut.closeConnection()
      stop()
    }
    LiveObjects.destroyed("Broadcaster", for: Event.self, object: ObjectIdentifier(self))
  }

  /// Whether the source is started: `true` from when its `start` returned until the broadcaster decides to stop it.
  public var isConnected: Bool {
    machine.withLock { $0.isConnected }
  }

  /// How many times the source was started. Counted when `start` returns.
  public var connectCount: Int {
    machine.withLock { $0.connectCount }
  }

  /// How many times the source was stopped. Counted when `stop` returns.
  public var disconnectCount: Int {
    machine.withLock { $0.disconnectCount }
  }

  /// The number of live subscribers: not cancelled, and whose responder, if any, is alive.
  ///
  /// Reading it only counts; it never disconnects. ``pruneDeadSubscribers()`` removes deinitialised responders and
  /// disconnects if none is left.
  ///
  /// - Complexity: O(*n*).
  public var subscriberCount: Int {
    fanOut.output.subscriberCount
  }

  /// How many events the source sent while connected. Each was decoded once and fanned out to every subscriber.
  public var upstreamEventCount: Int {
    fanOut.upstreamEventCount
  }

  /// How many upstream payloads could not be decoded and were dropped (G10).
  public var decodeFailureCount: Int {
    fanOut.decodeFailureCount
  }

  /// A hook called with every payload that could not be decoded, for logging and debugging. `nil` by default.
  ///
  /// It runs on the thread that received the payload, with no lock held, after the failure was counted.
  public var onDecodeFailure: (@Sendable (DecodeFailure) -> Void)? {
    get { fanOut.onDecodeFailure }
    set { fanOut.onDecodeFailure = newValue }
  }

  public func _subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    fanOut.output._subscribe(responder, on: context, at: callSite, handler)
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    fanOut.output._subscribe(on: context, at: callSite, handler)
  }

  public func _subscribe<Responder: EventResponder>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite
  ) -> ResponderSubscription where Responder.Event == Event {
    fanOut.output._subscribe(responder, on: context, at: callSite)
  }

  /// Brings the connection in line with the membership. Called after every change of membership, from any thread.
  private func reconcile() {
    guard machine.withLock({ $0.membershipChanged() }) else { return }
    while true {
      let wantsConnection = fanOut.output.occupiedCount > 0
      switch machine.withLock({ $0.nextAction(wantsConnection: wantsConnection) }) {
      case .start:
        let sink = EventSink(fanOut: fanOut, connection: fanOut.openConnection())
        let stop = startSource(sink)
        machine.withLock { $0.didStart(stop) }
      case .stop(let stop):
        fanOut.closeConnection()
        stop()
        machine.withLock { $0.didStop() }
      case .recheck:
        continue
      case .done:
        return
      }
    }
  }
}

extension Broadcaster: CustomDebugStringConvertible {
  /// The connection state, then the live subscriptions with where each was made.
  public var debugDescription: String {
    let (isConnected, connects, disconnects) = machine.withLock {
      ($0.isConnected, $0.connectCount, $0.disconnectCount)
    }
    let header =
      "Broadcaster<\(Event.self)>: \(isConnected ? "connected" : "disconnected"), "
      + "\(connects) connect\(connects == 1 ? "" : "s"), \(disconnects) disconnect\(disconnects == 1 ? "" : "s")"
    return header + "\n" + fanOut.output.debugDescription
  }
}
