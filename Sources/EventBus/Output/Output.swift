/// A typed, thread-safe multicast channel: one sender, many receivers.
///
/// An output is how an object announces what happened without knowing who listens. Events are usually an enum,
/// handled with one `switch`:
///
/// ```swift
/// enum ViewModelEvent: Sendable { case title(String), loading(Bool), failed(String) }
///
/// final class ProfileViewModel {
///   let output = Output<ViewModelEvent>()
///   func load() { output.send(.loading(true)) }
/// }
///
/// viewModel.output.subscribe(view) { view, event in view.handle(event: event) }  // held weakly
/// let subscription = viewModel.output.subscribe { event in print(event) }           // lives with the token
/// ```
///
/// ## Guarantees
/// - Subscribers are called in the order they subscribed, and each sees the events in the same order (G1).
/// - Events are delivered one at a time. A `send` that arrives while another thread delivers is queued and
///   delivered by that thread, first in, first out; a `send` from inside a handler is queued and delivered after
///   the current event has reached every subscriber, with constant stack depth (G2, G3).
/// - No lock is held while a handler runs: a handler may call anything, including this output (G8).
/// - A subscriber added during a delivery does not receive that event but does receive the next; one cancelled
///   during a delivery is skipped from then on (G5).
///
/// The Runtime Behavior article in the documentation covers all of them.
public final class Output<Event: Sendable>: Sendable {
  @usableFromInline typealias Machine = DeliveryStateMachine<Event>
  @usableFromInline typealias Step = Machine.Step

  /// The state behind the output's lock.
  @usableFromInline
  struct State: Sendable {
    /// First, and not generic: a subscribe or a cancel, which run unspecialised, reach it with no generic metadata.
    @usableFromInline var subscribers = SubscriberList()
    @usableFromInline var machine: Machine
    /// The lanes of the subscribers delivered on a queue or the main actor, one per queue.
    var lanes: [WeakLane] = []
    /// The mailboxes of the actor responders subscribed, which `waitUntilDelivered()` waits for.
    var mailboxes: [WeakBacklog] = []
    #if DEBUG
      /// Where `bind(to:)` started the view model whose output this is: a recorder created later may have missed
      /// what `start()` sent, and says so.
      var bindingStart: CallSite?
    #endif
  }

  /// How many past events a new subscriber receives before the live ones.
  public let replayCount: Int
  @usableFromInline let state: LockedState<State>
  /// Who holds the delivery: claimed and let go with no lock by a `send` that needs nothing else (see `send`).
  @usableFromInline let latch: DeliveryLatch
  /// The entries a round delivers to, read with no lock by the thread that holds the delivery.
  @usableFromInline let round: RoundEntries

  /// Creates an output.
  ///
  /// - Parameter replay: How many of the most recent events a new subscriber receives first, oldest first, before
  ///   any live event; no event is missed or repeated, even when a `send` races the `subscribe`. `0` (the default)
  ///   keeps no history; a negative value counts as `0`.
  public init(replay: Int = 0) {
    replayCount = Swift.max(0, replay)
    let initial = State(machine: Machine(replayCount: replay))
    latch = initial.subscribers.latch
    round = initial.subscribers.round
    state = LockedState(initial)
    LiveObjects.created("Output", for: Event.self, object: ObjectIdentifier(self))
  }

  deinit {
    LiveObjects.destroyed("Output", for: Event.self, object: ObjectIdentifier(self))
  }

  /// Delivers `event` to every subscriber.
  ///
  /// If no delivery is running, the calling thread delivers the event (immediate-context handlers run before
  /// `send` returns), then any events other threads queued meanwhile. If a delivery is running, on this thread
  /// (a handler sending) or another, the event is queued and `send` returns; the delivering thread delivers it next.
  ///
  /// - Parameter event: The event.
  /// - Complexity: O(*n*) for *n* subscribers when this thread delivers, O(1) when the event is queued. Allocates
  ///   nothing in steady state. Takes no lock when the output is idle and has no replay window and no ``trace``: two
  ///   atomic compare-and-swaps claim and release the delivery.
  @inlinable
  public func send(_ event: Event) {
    let thread = ThreadIdentity.current
    // The common case takes no lock: nobody delivers, and there is no replay window or trace to update. The sender
    // claims the delivery, delivers to the round's entries, which stay frozen while it holds the delivery, and lets
    // go, unless meanwhile a change was made or an event queued for it (`DeliveryLatch`).
    if replayCount == 0, !latch.sendNeedsLock, let holder = latch.tryClaim(for: thread) {
      let deadFound = Self.deliver(event, to: round.elements.pointee, in: round, holder: holder)
      if !deadFound, latch.tryRelease(holder) { return }
      deliverRounds(finishRound(deadFound: deadFound, holder: holder), by: thread)
      return
    }
    let step = state.withLock {
      DeliverySteps.send(event, from: thread, machine: &$0.machine, subscribers: &$0.subscribers)
    }
    step.trace?(event)
    deliverRounds(step, by: thread)
  }

  /// A hook called on the sending thread for every `send`, for logging and debugging. `nil` by default.
  ///
  /// It runs before the event is delivered (or after it is queued), with no lock held. The output holds the hook
  /// strongly: a hook that captures the output makes a cycle until you set `trace` back to `nil`.
  public var trace: (@Sendable (Event) -> Void)? {
    get { state.withLock { $0.machine.trace } }
    set {
      let old = state.withLock { state in
        latch.setSendNeedsLock(newValue != nil)
        return replacing(&state.machine.trace, with: newValue)
      }
      _ = old  // released here, with no lock held: the hook's captures may have a deinit
    }
  }

  /// The number of live subscribers: not cancelled, and whose responder, if any, is alive.
  ///
  /// Reading it only counts: a subscription whose responder deinitialised is not counted, but it is removed only by
  /// the next delivery that reaches it, a periodic sweep, or ``pruneDeadSubscribers()``.
  ///
  /// - Complexity: O(*n*).
  public var subscriberCount: Int {
    let entries = state.withLock { $0.subscribers.entries }
    var count = 0
    for case let entry? in entries where unsafeDowncast(entry, to: EventEntry.self).isTargetAlive {
      count += 1
    }
    return count
  }

  /// Removes now every subscription whose responder has deinitialised, instead of at the next event or sweep.
  ///
  /// An output notices a deinitialised responder only when it next touches its subscription (see the Runtime Behavior
  /// article, G6). That costs only memory, so an output rarely needs this; a broadcaster built on one disconnects its
  /// source when the last subscription goes, and its own `pruneDeadSubscribers()` is the way to force that.
  ///
  /// ```swift
  /// screen = nil
  /// output.pruneDeadSubscribers()   // the screen's subscription is gone now
  /// ```
  ///
  /// - Complexity: O(*n*).
  public func pruneDeadSubscribers() {
    pruneDeadEntries()
  }

  /// The number of events waiting to be delivered: sent while another thread, or a handler of this output, was
  /// delivering.
  ///
  /// The thread that is delivering also delivers everything other threads queue meanwhile, so a producer that sends
  /// faster than the handlers return makes this grow, without bound, while that thread stays inside its `send` (see
  /// the Runtime Behavior article, G2). Read it to watch for that. Events waiting in a `.main` or `.queue(_:)`
  /// subscriber's own queue are not counted.
  ///
  /// - Complexity: O(1).
  public var pendingCount: Int {
    state.withLock { $0.machine.pendingCount }
  }

  /// A view of this output that can subscribe but not send, for an owner that keeps `send` to itself.
  ///
  /// ```swift
  /// final class SignInViewModel {
  ///   private let output = Output<Event>()
  ///   var events: ReadOnlyOutput<Event> { output.readOnly }
  /// }
  /// ```
  public var readOnly: ReadOnlyOutput<Event> { ReadOnlyOutput(self) }
}

extension Output: EventStream {
  public func _subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    let entry = responderEntry(responder, handler: handler, context: context)
    add(entry, at: callSite)
    return ResponderSubscription(target: SubscriptionHandle(owner: self, entry: entry))
  }

  public func _subscribe<Responder: EventResponder>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite
  ) -> ResponderSubscription where Responder.Event == Event {
    guard case .immediate = context.kind else {
      return _subscribe(responder, on: context, at: callSite, handleEvent)
    }
    let entry = EventResponderEntry(responder)
    add(entry, at: callSite)
    return ResponderSubscription(target: SubscriptionHandle(owner: self, entry: entry))
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    let entry = handlerEntry(handler, context: context)
    add(entry, at: callSite)
    return EventSubscription(target: entry)
  }
}
