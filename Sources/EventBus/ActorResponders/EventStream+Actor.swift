extension EventStream {
  /// Subscribes an actor, held weakly, with a handler isolated to it.
  ///
  /// ```swift
  /// actor CartStore {
  ///   private(set) var items: [Item] = []
  ///   func apply(_ event: CartEvent) { … }
  /// }
  ///
  /// output.subscribe(store) { store, event in store.apply(event) }
  /// ```
  ///
  /// The handler runs on the actor, so it reads and changes the actor's state with no lock and no `Sendable` dance.
  /// Events reach it in the order they were sent, one at a time: the subscription queues them and one task at a time
  /// hands them over, never a task per event. A handler that suspends (an `await` inside it) delays the events after
  /// it, not the sender, and not the actor's other callers.
  ///
  /// The queue has no bound: a subscriber that never keeps up makes it grow, and
  /// ``ResponderSubscription/waitingCount`` shows by how much (a debug build warns once past 100,000). The form with a
  /// `bufferingPolicy:` bounds it: the events it drops are counted (``ResponderSubscription/droppedCount``) and told to
  /// `onLag` before the next event the actor receives. Cancelling drops what waits. When the actor deinitialises, the
  /// subscription ends and what waits is dropped.
  ///
  /// - Parameters:
  ///   - responder: The actor. Never retained, except while its handler runs.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
  ///   - handler: Called on the actor with each event, in order.
  /// - Returns: A handle that can end the subscription early and shows its backlog. Dropping it does not end the
  ///   subscription.
  /// - Complexity: O(1) amortised.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) async -> Void
  ) -> ResponderSubscription {
    subscribe(responder, bufferingPolicy: .unbounded, fileID: fileID, line: line, handler)
  }

  /// Subscribes an actor, held weakly, with a handler isolated to it, keeping what `bufferingPolicy` says when the actor
  /// falls behind. Otherwise as the form without a policy, which keeps every event.
  ///
  /// ```swift
  /// output.subscribe(indexer, bufferingPolicy: .bufferingNewest(100)) { indexer, event in
  ///   await indexer.index(event)
  /// }
  /// ```
  ///
  /// The label is required, unlike a delivery context's: a defaulted parameter here would tie this method with
  /// immediate delivery's `subscribe`, and a handler isolated to the actor would no longer be told apart.
  ///
  /// - Parameters:
  ///   - responder: The actor. Never retained, except while its handler runs.
  ///   - bufferingPolicy: How many events may wait for the actor.
  ///   - onLag: Called before the next event the actor receives, on the task that hands it over, with how many events
  ///     the policy dropped since the last one.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
  ///   - handler: Called on the actor with each event it receives, in order.
  /// - Returns: A handle that can end the subscription early and shows its backlog and drops.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    bufferingPolicy: DeliveryContext.BufferingPolicy,
    onLag: (@Sendable (Int) -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) async -> Void
  ) -> ResponderSubscription {
    let callSite = CallSite(fileID: fileID, line: line)
    let mailbox = ActorMailbox(
      responder: responder, bufferingPolicy: bufferingPolicy, onLag: onLag, callSite: callSite, handler: handler)
    let upstream = _subscribe(responder, on: .immediate, at: callSite) { _, event in
      mailbox.enqueue(event)
    }
    // The stream's output keeps the mailbox weakly, for `waitUntilDelivered()` to wait for the actor too.
    upstream.entryOwner?.track(mailbox)
    return ResponderSubscription(target: ActorSubscription(upstream: upstream, mailbox: mailbox))
  }

  /// Subscribes an actor, held weakly, with a synchronous handler isolated to it; as the `async` form, which it
  /// calls.
  ///
  /// The overload exists so that a handler with no `await` in it is isolated to the actor too, rather than taken for
  /// a handler of immediate delivery, which may not touch the actor's state.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) -> Void
  ) -> ResponderSubscription {
    subscribe(responder, bufferingPolicy: .unbounded, fileID: fileID, line: line, handler)
  }

  /// Subscribes an actor, held weakly, with a synchronous handler isolated to it, keeping what `bufferingPolicy` says
  /// when the actor falls behind; as the `async` form, which it calls.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    bufferingPolicy: DeliveryContext.BufferingPolicy,
    onLag: (@Sendable (Int) -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) -> Void
  ) -> ResponderSubscription {
    let isolatedHandler: @Sendable (isolated Responder, Event) async -> Void = { responder, event in
      handler(responder, event)
    }
    return subscribe(
      responder, bufferingPolicy: bufferingPolicy, onLag: onLag, fileID: fileID, line: line, isolatedHandler)
  }
}

/// The events waiting for an actor responder, and the one task at a time that hands them over.
final class ActorMailbox<Responder: Actor, Event: Sendable>: Sendable {
  private struct State: Sendable {
    var events = RingBuffer<Event>()
    /// For each event, how many the policy dropped just before it, told to the actor before it: kept beside the
    /// events, not in a tuple with each, whose type this unspecialised code would look up at run time; only a bounded
    /// mailbox keeps it.
    var missedBefore = RingBuffer<Int>()
    /// A task is handing events over: later events wait for it.
    var isDraining = false
    var isCancelled = false
    /// Events the policy dropped, in all.
    var dropped = 0
    /// Events the policy dropped after the last one waiting (keeping the oldest): told before the next one queued.
    var droppedAtEnd = 0
    #if DEBUG
      /// The warning about an unbounded backlog was written.
      var hasWarned = false
    #endif
    /// Calls of `Output.waitUntilDelivered()` waiting for the task: behind the event it hands over, and those waiting.
    var waits = DeliveryWaitList()
  }

  private weak let responder: Responder?
  private let handler: @Sendable (isolated Responder, Event) async -> Void
  private let bufferingPolicy: DeliveryContext.BufferingPolicy
  private let onLag: (@Sendable (Int) -> Void)?
  /// Where the subscription was made, for the debug warning about its backlog.
  private let callSite: CallSite
  private let state = LockedState(State())

  init(
    responder: Responder, bufferingPolicy: DeliveryContext.BufferingPolicy, onLag: (@Sendable (Int) -> Void)?,
    callSite: CallSite, handler: @escaping @Sendable (isolated Responder, Event) async -> Void
  ) {
    self.responder = responder
    self.handler = handler
    self.bufferingPolicy = bufferingPolicy
    self.onLag = onLag
    self.callSite = callSite
  }

  /// Queues `event` as the policy says, and starts a task to hand it over unless one is running.
  func enqueue(_ event: Event) {
    let limit = bufferingPolicy.limit ?? .max
    var evicted: Event?
    var warns = false
    let startsTask = state.withLock { state -> Bool in
      guard !state.isCancelled else { return false }
      if limit == .max {
        state.events.append(event)
      } else {
        var carried = 0
        if state.events.count >= limit {
          state.dropped += 1
          guard case .bufferingNewest = bufferingPolicy else {
            state.droppedAtEnd += 1
            return false  // the new event goes
          }
          evicted = state.events.popFirst()
          carried = 1 &+ (state.missedBefore.popFirst() ?? 0)
          if !state.events.isEmpty {
            state.missedBefore.modifyFirst { $0 &+= carried }
            carried = 0
          }
        }
        state.events.append(event)
        state.missedBefore.append(replacing(&state.droppedAtEnd, with: 0) &+ carried)
      }
      #if DEBUG
        if limit == .max, !state.hasWarned, state.events.count > DeliveryLane<Event>.backlogWarningThreshold {
          state.hasWarned = true
          warns = true
        }
      #endif
      guard !state.isDraining else { return false }
      state.isDraining = true
      return true
    }
    _ = evicted  // released here, with no lock held: an event's deinit is user code
    #if DEBUG
      if warns {
        warnAboutBacklog()
      }
    #endif
    if startsTask {
      Task { await self.drain() }
    }
  }

  #if DEBUG
    /// Writes, once, that more events wait for the actor than a debug build lets pass without a word.
    private func warnAboutBacklog() {
      DebugWarnings.emit(
        "EventBus warning: more than \(DeliveryLane<Event>.backlogWarningThreshold) events wait for the actor "
          + "subscribed at \(callSite): its handler is slower than its sender, and the queue grows without bound. Give "
          + "it a buffering policy that keeps what it needs, for example `subscribe(actor, bufferingPolicy: "
          + ".bufferingNewest(1_000))`, which drops what it cannot keep, counts it (droppedCount) and tells it (onLag). "
          + "(Debug builds only; once per subscription.)",
        about: callSite)
    }
  #endif

  /// The buffering policy, for `debugDescription`.
  var policyDescription: String { "\(bufferingPolicy)" }

  /// Events the policy dropped.
  var droppedCount: Int {
    state.withLock { $0.dropped }
  }

  /// The events waiting.
  var waitingCount: Int {
    state.withLock { $0.events.count }
  }

  /// Drops what waits and refuses later events. A handler running goes on; the task stops after it, passing every
  /// `waitUntilDelivered()` kept here.
  func cancel() {
    let dropped = state.withLock { state in
      state.isCancelled = true
      state.missedBefore = RingBuffer()
      return replacing(&state.events, with: RingBuffer())
    }
    _ = dropped  // released here, with no lock held: an event's deinit is user code
  }

  private func drain() async {
    var missed = 0
    while let event = next(missed: &missed) {
      if missed > 0 {
        onLag?(missed)
      }
      if let responder {
        await handler(responder, event)
      } else {
        // The actor deinitialised: its subscription ends with it, and the next `next()` stops the task.
        cancel()
      }
    }
  }

  /// The next event to hand over, or `nil`, which ends the task; `missed` is set to how many the policy dropped just
  /// before it. The event handed over last has been handled.
  private func next(missed: inout Int) -> Event? {
    let (event, missedBefore, passedWaits) = state.withLock { state -> (Event?, Int, [DeliveryWait]?) in
      let takesAnother = !state.isCancelled && !state.events.isEmpty
      let passedWaits = state.waits.isEmpty ? nil : state.waits.advance(takingAnother: takesAnother)
      guard takesAnother else {
        state.isDraining = false
        return (nil, 0, passedWaits)
      }
      return (state.events.popFirst(), state.missedBefore.popFirst() ?? 0, passedWaits)
    }
    DeliveryWait.arrive(passedWaits)
    missed = missedBefore
    return event
  }
}

extension ActorMailbox: DeliveryBacklog {
  func register(_ wait: DeliveryWait) -> Bool {
    state.withLock { state in
      guard state.isDraining else { return false }
      state.waits.add(wait, behind: state.events.count)
      return true
    }
  }

  func forget(_ wait: DeliveryWait) {
    state.withLock { $0.waits.remove(wait) }
  }
}

/// What an actor responder's handle ends: the subscription to the stream, and the mailbox.
final class ActorSubscription<Responder: Actor, Event: Sendable>: SubscriptionTarget {
  // Both are immutable and `Sendable`.
  private let upstream: ResponderSubscription
  private let mailbox: ActorMailbox<Responder, Event>

  init(upstream: ResponderSubscription, mailbox: ActorMailbox<Responder, Event>) {
    self.upstream = upstream
    self.mailbox = mailbox
  }

  func cancel() {
    upstream.cancel()
    mailbox.cancel()
  }

  var waitingCount: Int { mailbox.waitingCount }

  var droppedCount: Int { mailbox.droppedCount }

  var entryOwner: (any EntryOwner)? { upstream.entryOwner }

  var subscriptionDescription: String {
    "actor \(Responder.self) (\(mailbox.policyDescription)): \(waitingCount) waiting, \(droppedCount) dropped"
  }
}
