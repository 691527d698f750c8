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
  /// How many past events a new subscriber receives before the live ones.
  public let replayCount: Int
  /// The owner of the delivery: everything below this API.
  @usableFromInline let storage: DeliveryStorage<Event>

  /// Creates an output.
  ///
  /// - Parameter replay: How many of the most recent events a new subscriber receives first, oldest first, before
  ///   any live event; no event is missed or repeated, even when a `send` races the `subscribe`. `0` (the default)
  ///   keeps no history; a negative value counts as `0`.
  public init(replay: Int = 0) {
    replayCount = Swift.max(0, replay)
    storage = DeliveryStorage(replayCount: replayCount)
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
    // The common case takes no lock: nobody delivers, and there is no replay window or trace to update.
    if let holder = storage.claimWithNoLock(for: thread) {
      storage.deliver(event, holder: holder, isLockFree: true)
    } else {
      storage.sendWithLock(event, from: thread)
    }
  }

  /// A hook called on the sending thread for every `send`, for logging and debugging. `nil` by default.
  ///
  /// It runs before the event is delivered (or after it is queued), with no lock held. The output holds the hook
  /// strongly: a hook that captures the output makes a cycle until you set `trace` back to `nil`.
  public var trace: (@Sendable (Event) -> Void)? {
    get { storage.trace }
    set { storage.trace = newValue }
  }

  /// The number of live subscribers: not cancelled, and whose responder, if any, is alive.
  ///
  /// Reading it only counts: a subscription whose responder deinitialised is not counted, but it is removed only by
  /// the next delivery that reaches it, a periodic sweep, or ``pruneDeadSubscribers()``.
  ///
  /// - Complexity: O(*n*).
  public var subscriberCount: Int {
    storage.entries.count { $0.isTargetAlive }
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
    storage.pruneDeadEntries()
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
    storage.pendingCount
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
    // Immediate delivery is decided before the lane type is named: on this unspecialised path, naming a generic
    // type costs a run-time metadata lookup.
    guard case .immediate = context.kind else {
      let entry = QueuedEntry(
        responder, handler: handler, lane: storage.lane(for: context, at: callSite), onLag: context.onLag, output: self)
      storage.add(entry, at: callSite)
      return ResponderSubscription(target: entry)
    }
    let entry = ResponderEntry(responder, handler: handler)
    storage.add(entry, at: callSite)
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
    storage.add(entry, at: callSite)
    return ResponderSubscription(target: SubscriptionHandle(owner: self, entry: entry))
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    guard case .immediate = context.kind else {
      let entry = QueuedEntry(
        handler: handler, lane: storage.lane(for: context, at: callSite), onLag: context.onLag, output: self)
      storage.add(entry, at: callSite)
      return EventSubscription(target: entry)
    }
    let entry = HandlerEntry(handler: handler, output: self)
    storage.add(entry, at: callSite)
    return EventSubscription(target: entry)
  }
}

extension Output: EntryOwner {
  func remove(_ entry: Entry) {
    storage.remove(entry)
  }

  func track(_ backlog: any DeliveryBacklog) {
    storage.track(backlog)
  }
}

// MARK: - Package interface for Broadcasters

extension Output {
  /// The number of subscriptions not yet removed. Unlike ``subscriberCount`` it does not look at responders, so
  /// it may still count one that deinitialised and has not been pruned yet.
  package var occupiedCount: Int {
    storage.occupiedCount
  }

  /// Sets the function called, with no lock held, after subscriptions were added or removed.
  ///
  /// A broadcaster uses it to connect on the first subscriber and disconnect after the last. Calls may arrive
  /// from several threads and in any order; read ``occupiedCount`` to learn the current state.
  package func setMembershipObserver(_ observer: (@Sendable () -> Void)?) {
    storage.setMembershipObserver(observer)
  }

  /// Removes subscriptions whose responder has deinitialised.
  package func pruneDeadEntries() {
    storage.pruneDeadEntries()
  }
}

extension Output: CustomDebugStringConvertible {
  /// The live subscriptions, with where each was made and its delivery context.
  public var debugDescription: String {
    let (entries, callSites) = storage.subscribers
    var lines: [String] = []
    for entry in entries where entry.isTargetAlive {
      lines.append(
        "  #\(lines.count + 1) \(entry.targetDescription) at \(callSites.site(entry.callSite))"
          + " (\(entry.contextDescription))"
      )
    }
    let header =
      "Output<\(Event.self)>: \(lines.count) subscriber\(lines.count == 1 ? "" : "s")"
      + (replayCount > 0 ? ", replay \(replayCount)" : "")
    return ([header] + lines).joined(separator: "\n")
  }
}
