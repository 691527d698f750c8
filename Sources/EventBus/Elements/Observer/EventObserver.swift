/// An ``Observer`` that connects an ``EventStream`` (an ``Output``, a ``ReadOnlyOutput``, an operator chain, a hub's
/// events) to a weakly held responder.
///
/// It is created stopped; ``startObserving()`` subscribes, ``stopObserving()`` cancels, and both may be called
/// again and again:
///
/// ```swift
/// let keyboardObserver = EventObserver(keyboard.events, responder: screen) { screen, event in
///   screen.adjustInsets(for: event)
/// }
/// keyboardObserver.startObserving()   // screen appeared
/// keyboardObserver.stopObserving()    // screen disappeared
/// ```
///
/// The responder is never retained. When it deinitialises the observer stops itself: ``isObserving`` turns `false`,
/// the subscription is released, and ``startObserving()`` does nothing from then on. Releasing the observer also
/// ends its subscription.
///
/// Every method may be called from any thread. Once ``stopObserving()`` has returned, nothing more reaches the handler
/// on the thread that stopped, not even an event already on its way (a replayed one, or one queued for another
/// context), and nothing sent afterwards reaches it anywhere. As with ``EventSubscription/cancel()``, a handler already
/// running on another thread may finish; it is never waited for.
public final class EventObserver<Event: Sendable, Responder: AnyObject & Sendable>: Observer, Sendable {
  private struct State {
    /// Increases on every start and stop, so a start that raced a stop can tell that it lost.
    var generation: UInt64 = 0
    var isStarted = false
    var subscription: ResponderSubscription?
  }

  private weak let weakResponder: Responder?
  /// Subscribes the responder; the handler it installs delivers only while the given predicate returns `true`.
  private let subscribe: @Sendable (Responder, _ isCurrent: @escaping @Sendable () -> Bool) -> ResponderSubscription
  private let state = LockedState(State())

  /// Creates a stopped observer that calls `handler` with the responder and each event of `stream`.
  ///
  /// Each start subscribes as ``EventStream/subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)`` would; the other
  /// initialisers document only what differs.
  ///
  /// - Parameters:
  ///   - stream: What to observe: an output, a read-only output, an operator chain, a hub's events.
  ///   - responder: The object the events are for. Never retained.
  ///   - context: Where `handler` runs; `.immediate` by default.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
  ///   - handler: Called with the responder and each event while observing.
  public init<Stream: EventStream<Event>>(
    _ stream: Stream,
    responder: Responder,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) {
    let location = CallSite(fileID: fileID, line: line)
    weakResponder = responder
    subscribe = { responder, isCurrent in
      stream._subscribe(responder, on: context, at: location) { responder, event in
        guard isCurrent() else { return }
        handler(responder, event)
      }
    }
  }

  /// Creates a stopped observer whose handler runs on the main actor. Otherwise as
  /// ``init(_:responder:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  ///
  /// ```swift
  /// EventObserver(session.state, responder: screen, on: .main) { screen, state in screen.render(state) }
  /// ```
  public convenience init<Stream: EventStream<Event>>(
    _ stream: Stream,
    responder: Responder,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor (Responder, Event) -> Void
  ) {
    self.init(
      stream, responder: responder, on: context.deliveryContext, fileID: fileID, line: line,
      MainQueue.uncheckedHandler(handler))
  }

  /// Creates a stopped observer that calls an ``EventResponder``'s `handle(event:)` with each event. Otherwise as
  /// ``init(_:responder:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  public convenience init<Stream: EventStream<Event>>(
    _ stream: Stream,
    responder: Responder,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where Responder: EventResponder, Responder.Event == Event {
    self.init(stream, responder: responder, on: context, fileID: fileID, line: line, observerHandleEvent)
  }

  /// Creates a stopped observer that calls a ``MainActorEventResponder``'s `handle(event:)` with each event, on the
  /// main actor. Otherwise as ``init(_:responder:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  public convenience init<Stream: EventStream<Event>>(
    _ stream: Stream,
    responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where Responder: MainActorEventResponder, Responder.Event == Event {
    self.init(stream, responder: responder, on: .main, fileID: fileID, line: line) { responder, event in
      responder.handle(event: event)
    }
  }

  deinit {
    state.withLock { $0.subscription }?.cancel()
  }

  /// The object the events are for, or `nil` once it has deinitialised.
  public var responder: Responder? { weakResponder }

  /// Whether the observer is started and its responder is alive.
  ///
  /// Reading it when the responder has gone releases the subscription.
  public var isObserving: Bool {
    guard weakResponder != nil else {
      stopObserving()
      return false
    }
    return state.withLock { $0.isStarted }
  }

  /// Subscribes the responder to the stream. Does nothing if already observing, or if the responder is gone (then
  /// the observer stops for good).
  ///
  /// With a replaying output (`Output(replay:)`) the replayed events reach the handler before this returns.
  public func startObserving() {
    guard let responder = weakResponder else {
      stopObserving()
      return
    }
    let generation = state.withLock { state -> UInt64? in
      guard !state.isStarted else { return nil }
      state.isStarted = true
      state.generation &+= 1
      return state.generation
    }
    guard let generation else { return }
    // No lock is held while subscribing: with a replaying output the handler runs right here. The handler holds the
    // observer weakly, so an observer released without stopping is not kept alive by its own subscription.
    let subscription = subscribe(responder) { [weak self] in self?.isCurrent(generation) ?? false }
    let isStale = state.withLock { state -> Bool in
      guard state.isStarted, state.generation == generation else { return true }
      state.subscription = subscription
      return false
    }
    if isStale {
      // A stop (possibly from inside the handler) came while subscribing.
      subscription.cancel()
    }
  }

  /// Cancels the subscription. Does nothing if not observing.
  ///
  /// Once it has returned, the handler receives nothing more until the next ``startObserving()``, except that a
  /// handler already running on another thread may finish: it is never waited for (G4).
  public func stopObserving() {
    let subscription = state.withLock { state -> ResponderSubscription? in
      guard state.isStarted else { return nil }
      state.isStarted = false
      state.generation &+= 1
      return replacing(&state.subscription, with: nil)
    }
    subscription?.cancel()
  }

  /// Whether the subscription made by the start that returned `generation` is still the current one.
  private func isCurrent(_ generation: UInt64) -> Bool {
    state.withLock { $0.isStarted && $0.generation == generation }
  }
}

// A function rather than a closure: a closure here would capture the responder's metatype, which is not Sendable.
@Sendable
private func observerHandleEvent<Responder: EventResponder>(_ responder: Responder, _ event: Responder.Event) {
  responder.handle(event: event)
}
