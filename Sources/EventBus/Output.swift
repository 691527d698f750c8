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
  @usableFromInline let state: LockedState<State>

  /// Creates an output.
  ///
  /// - Parameter replay: How many of the most recent events a new subscriber receives first, oldest first, before
  ///   any live event; no event is missed or repeated, even when a `send` races the `subscribe`. `0` (the default)
  ///   keeps no history; a negative value counts as `0`.
  public init(replay: Int = 0) {
    replayCount = Swift.max(0, replay)
    state = LockedState(State())
    LiveObjects.created("Output", for: Event.self)
  }

  deinit {
    LiveObjects.destroyed("Output", for: Event.self)
  }

  /// Delivers `event` to every subscriber.
  ///
  /// If no delivery is running, the calling thread delivers the event (immediate-context handlers run before
  /// `send` returns), then any events other threads queued meanwhile. If a delivery is running, on this thread
  /// (a handler sending) or another, the event is queued and `send` returns; the delivering thread delivers it next.
  ///
  /// - Parameter event: The event.
  /// - Complexity: O(*n*) for *n* subscribers when this thread delivers, O(1) when the event is queued. Allocates
  ///   nothing in steady state.
  @inlinable
  public func send(_ event: Event) {
    let decision = state.withLock { state -> SendDecision in
      let trace = state.trace
      guard !state.isDelivering else {
        state.pending.append(event)
        return SendDecision(work: nil, trace: trace)
      }
      state.isDelivering = true
      state.deliveringThread = .current
      let dropped = state.replay.append(event, keepingAtMost: replayCount)
      return SendDecision(work: .event(event, state.entries), trace: trace, droppedFromReplay: dropped)
    }
    decision.trace?(event)
    if let work = decision.work {
      run(work)
    }
    // `decision` goes here, with no lock held: it may hold the last reference to the event that left the replay
    // window, whose deinit is user code.
  }

  /// A hook called on the sending thread for every `send`, for logging and debugging. `nil` by default.
  ///
  /// It runs before the event is delivered (or after it is queued), with no lock held. The output holds the hook
  /// strongly: a hook that captures the output makes a cycle until you set `trace` back to `nil`.
  public var trace: (@Sendable (Event) -> Void)? {
    get { state.withLock { $0.trace } }
    set {
      let old = state.withLock { state in
        defer { state.trace = newValue }
        return state.trace
      }
      _ = old  // released outside the lock
    }
  }

  /// The number of live subscribers: not cancelled, and whose responder, if any, is alive.
  ///
  /// Reading it only counts: a subscription whose responder deinitialised is not counted, but it is removed only by
  /// the next delivery that reaches it, a periodic sweep, or ``pruneDeadSubscribers()``.
  ///
  /// - Complexity: O(*n*).
  public var subscriberCount: Int {
    let snapshot = state.withLock { $0.entries }
    var count = 0
    for case let entry? in snapshot where entry.isTargetAlive {
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
    state.withLock { $0.pending.count }
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
    let entry = ResponderEntry(responder, handler: handler, output: self, context: context, location: callSite)
    add(entry)
    return ResponderSubscription(target: entry)
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    let entry = HandlerEntry(handler: handler, output: self, context: context, location: callSite)
    add(entry)
    return EventSubscription(target: entry)
  }
}

// MARK: - Package interface for Broadcasters

extension Output {
  /// The number of subscriptions not yet removed. Unlike ``subscriberCount`` it does not look at responders, so
  /// it may still count one that deinitialised and has not been pruned yet.
  package var occupiedCount: Int {
    state.withLock { $0.occupiedCount }
  }

  /// Sets the function called, with no lock held, after subscriptions were added or removed.
  ///
  /// A broadcaster uses it to connect on the first subscriber and disconnect after the last. Calls may arrive
  /// from several threads and in any order; read ``occupiedCount`` to learn the current state.
  package func setMembershipObserver(_ observer: (@Sendable () -> Void)?) {
    let old = state.withLock { state in
      defer { state.membershipObserver = observer }
      return state.membershipObserver
    }
    _ = old  // released outside the lock
  }

  /// Removes subscriptions whose responder has deinitialised.
  ///
  /// Weak references are read outside the lock: reading one retains the responder, and the matching release could
  /// run its `deinit`, which is user code.
  package func pruneDeadEntries() {
    let snapshot = state.withLock { $0.entries }
    var dead: [Entry] = []
    for case let entry? in snapshot where !entry.isTargetAlive {
      dead.append(entry)
    }
    guard !dead.isEmpty else { return }
    let observer = state.withLock { state -> (@Sendable () -> Void)? in
      var removedAny = false
      for entry in dead where state.remove(entry) {
        removedAny = true
      }
      state.pruneThreshold = Swift.max(State.minimumPruneThreshold, state.occupiedCount * 2)
      return removedAny ? state.membershipObserver : nil
    }
    observer?()
  }
}

// MARK: - Delivery

extension Output {
  /// What the thread that holds the delivery does next.
  @usableFromInline
  enum Work {
    /// Deliver an event to the subscribers of this snapshot.
    case event(Event, ContiguousArray<Entry?>)
    /// Deliver the replay window to a subscriber that just joined.
    case replay(ContiguousArray<Event>, Entry)
  }

  @usableFromInline
  struct SendDecision {
    @usableFromInline var work: Work?
    @usableFromInline var trace: (@Sendable (Event) -> Void)?
    @usableFromInline var droppedFromReplay: Event?

    @inlinable
    init(work: Work?, trace: (@Sendable (Event) -> Void)?, droppedFromReplay: Event? = nil) {
      self.work = work
      self.trace = trace
      self.droppedFromReplay = droppedFromReplay
    }
  }

  private func add(_ entry: Entry) {
    let (work, shouldPrune, observer) = state.withLock { state in
      state.insert(entry)
      var work: Work?
      if replayCount > 0, !state.replay.isEmpty {
        let replay = Replay(events: state.replay.elements, entry: entry)
        if state.isDelivering {
          state.pendingReplays.append(replay)
        } else {
          state.isDelivering = true
          state.deliveringThread = .current
          work = .replay(replay.events, entry)
        }
      }
      let shouldPrune = state.occupiedCount >= state.pruneThreshold
      if shouldPrune {
        // Raise the threshold now so that concurrent subscribers don't all start a prune.
        state.pruneThreshold = state.occupiedCount * 2
      }
      return (work, shouldPrune, state.membershipObserver)
    }
    if let work {
      run(work)
    }
    if shouldPrune {
      pruneDeadEntries()
    }
    observer?()
  }

  /// Removes `entry`; called by its `cancel()`.
  func remove(_ entry: Entry) {
    let observer = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.remove(entry) else { return nil }
      if state.isDelivering, state.deliveringThread == .current {
        // This thread is delivering (the cancel comes from a handler, possibly several outputs deep): skip the
        // entry for the rest of the round. Only the delivering thread reads `isSkipped`.
        entry.isSkipped = true
      }
      return state.membershipObserver
    }
    observer?()
  }

  /// Hands `event` to every entry of `snapshot` not skipped. Returns whether a responder was found deinitialised.
  ///
  /// The hot loop of the library. `snapshot` holds every entry for the whole loop, so entries are borrowed rather
  /// than retained and released one by one (Bench's `fanout` scenario measures the difference).
  @inlinable @inline(__always)
  static func deliver(_ event: Event, to snapshot: ContiguousArray<Entry?>) -> Bool {
    assert(MemoryLayout<Entry?>.stride == MemoryLayout<UnsafeRawPointer?>.stride)
    var deadFound = false
    snapshot.withUnsafeBufferPointer { slots in
      guard let base = UnsafeRawPointer(slots.baseAddress) else { return }
      // Each slot is an `Entry?`: one nullable object pointer. Reading it as a raw pointer and borrowing the entry
      // avoids a retain and a release per subscriber.
      for offset in 0..<slots.count {
        guard
          let object = base.load(
            fromByteOffset: offset &* MemoryLayout<UnsafeRawPointer?>.stride,
            as: UnsafeRawPointer?.self)
        else { continue }
        Unmanaged<Entry>.fromOpaque(object)._withUnsafeGuaranteedRef { entry in
          if !entry.deliverUnlessSkipped(event) {
            deadFound = true
          }
        }
      }
    }
    return deadFound
  }

  /// Hands a replay window to one entry that just subscribed. Returns whether its responder was found deinitialised.
  ///
  /// Not inlinable, for the reason given on `deliver(_:to:)`.
  @usableFromInline
  static func deliver(_ events: ContiguousArray<Event>, to entry: Entry) -> Bool {
    for event in events where !entry.isSkipped && !entry.isDead {
      if !entry.receive(event) {
        entry.isDead = true
        return true
      }
    }
    return false
  }

  /// Delivers `first`, then whatever was queued meanwhile, until the queue is empty. Called by the one thread that
  /// set `isDelivering`; no lock is held while handlers run.
  @inlinable
  func run(_ first: Work) {
    var work = first
    while true {
      var deadFound = false
      switch work {
      case .event(let event, let snapshot):
        deadFound = Self.deliver(event, to: snapshot)
      case .replay(let events, let entry):
        deadFound = Self.deliver(events, to: entry)
      }
      let (next, observer, released) = state.withLock { state in
        let removedAny = deadFound && state.removeDead(in: work)
        var released = Released()
        let next = state.nextWork(replayCount: replayCount, releasing: &released)
        return (next, removedAny ? state.membershipObserver : nil, released)
      }
      // What the locked step took out of the state goes here, with no lock held (see `Released`).
      _ = released
      observer?()
      guard let next else { return }
      // Replacing `work` releases the previous snapshot here, with no lock held: it may hold the last reference to a
      // removed entry, whose handler may capture objects with a `deinit`.
      work = next
    }
  }
}

// MARK: - State

extension Output {
  @usableFromInline
  struct Replay: Sendable {
    @usableFromInline var events: ContiguousArray<Event>
    @usableFromInline var entry: Entry
  }

  /// What a locked step removed from the state, handed out to be released after the lock is dropped: it may hold the
  /// last reference to an event or to a cancelled entry (and so to its handler's captures), and their deinit is user
  /// code, which may call this output (G8).
  @usableFromInline
  struct Released {
    @usableFromInline var droppedFromReplay: Event?
    @usableFromInline var cancelledReplays: [Replay] = []

    @inlinable
    init() {}
  }

  @usableFromInline
  struct State: Sendable {
    static var minimumPruneThreshold: Int { 64 }

    /// Subscribers in subscription order; `nil` marks a removed one until the next compaction.
    @usableFromInline var entries: ContiguousArray<Entry?> = []
    /// Non-`nil` slots in `entries`.
    @usableFromInline var occupiedCount = 0
    /// Events sent while a delivery was running.
    @usableFromInline var pending = RingBuffer<Event>()
    /// Replay windows for subscribers that joined while a delivery was running.
    @usableFromInline var pendingReplays = RingBuffer<Replay>()
    /// The last delivered events, for `Output(replay:)`.
    @usableFromInline var replay = RingBuffer<Event>()
    @usableFromInline var isDelivering = false
    @usableFromInline var deliveringThread: ThreadIdentity?
    /// When `occupiedCount` reaches it, the next subscribe prunes responders that deinitialised.
    @usableFromInline var pruneThreshold = minimumPruneThreshold
    @usableFromInline var trace: (@Sendable (Event) -> Void)?
    @usableFromInline var membershipObserver: (@Sendable () -> Void)?

    mutating func insert(_ entry: Entry) {
      entry.index = Int32(truncatingIfNeeded: entries.count)
      entries.append(entry)
      occupiedCount += 1
    }

    /// Removes `entry` unless it is already gone. The caller holds a reference to it, so the entry is not freed
    /// here, under the lock.
    ///
    /// - Complexity: O(1) amortised: the slot becomes `nil`, and the array is compacted once removed slots
    ///   outnumber live ones.
    @inlinable
    mutating func remove(_ entry: Entry) -> Bool {
      guard !entry.isCancelled else { return false }
      entry.isCancelled = true
      entries[Int(entry.index)] = nil
      occupiedCount -= 1
      if entries.count >= 32, occupiedCount * 2 < entries.count {
        compact()
      }
      return true
    }

    @inlinable
    mutating func removeDead(in work: Work) -> Bool {
      var removedAny = false
      switch work {
      case .event(_, let snapshot):
        for case let entry? in snapshot where entry.wasFoundDead && remove(entry) {
          removedAny = true
        }
      case .replay(_, let entry):
        removedAny = entry.wasFoundDead && remove(entry)
      }
      return removedAny
    }

    @inlinable
    mutating func nextWork(replayCount: Int, releasing released: inout Released) -> Work? {
      while let replay = pendingReplays.popFirst() {
        if !replay.entry.isCancelled {
          return .replay(replay.events, replay.entry)
        }
        released.cancelledReplays.append(replay)
      }
      if let event = pending.popFirst() {
        released.droppedFromReplay = replay.append(event, keepingAtMost: replayCount)
        return .event(event, entries)
      }
      isDelivering = false
      deliveringThread = nil
      return nil
    }

    @usableFromInline
    mutating func compact() {
      var compacted = ContiguousArray<Entry?>()
      compacted.reserveCapacity(Swift.max(occupiedCount * 2, 16))
      for case let entry? in entries {
        entry.index = Int32(truncatingIfNeeded: compacted.count)
        compacted.append(entry)
      }
      entries = compacted
    }
  }
}

extension Output: CustomDebugStringConvertible {
  /// The live subscriptions, with where each was made and its delivery context.
  public var debugDescription: String {
    let snapshot = state.withLock { $0.entries }
    var lines: [String] = []
    for case let entry? in snapshot where entry.isTargetAlive {
      lines.append(
        "  #\(lines.count + 1) \(entry.targetDescription) at \(entry.location) (\(entry.contextDescription))")
    }
    let header =
      "Output<\(Event.self)>: \(lines.count) subscriber\(lines.count == 1 ? "" : "s")"
      + (replayCount > 0 ? ", replay \(replayCount)" : "")
    return ([header] + lines).joined(separator: "\n")
  }
}
