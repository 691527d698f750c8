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
  /// ``ResponderSubscription/waitingCount`` shows by how much. Cancelling drops what waits. When the actor
  /// deinitialises, the subscription ends and what waits is dropped.
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
    let mailbox = ActorMailbox(responder: responder, handler: handler)
    let upstream = _subscribe(responder, on: .immediate, at: CallSite(fileID: fileID, line: line)) { _, event in
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
    let isolatedHandler: @Sendable (isolated Responder, Event) async -> Void = { responder, event in
      handler(responder, event)
    }
    return subscribe(responder, fileID: fileID, line: line, isolatedHandler)
  }
}

/// The events waiting for an actor responder, and the one task at a time that hands them over.
final class ActorMailbox<Responder: Actor, Event: Sendable>: Sendable {
  private struct State: Sendable {
    var events = RingBuffer<Event>()
    /// A task is handing events over: later events wait for it.
    var isDraining = false
    var isCancelled = false
    /// Calls of `Output.waitUntilDelivered()` waiting for the task: behind the event it hands over, and those waiting.
    var waits = DeliveryWaitList()
  }

  private weak let responder: Responder?
  private let handler: @Sendable (isolated Responder, Event) async -> Void
  private let state = LockedState(State())

  init(responder: Responder, handler: @escaping @Sendable (isolated Responder, Event) async -> Void) {
    self.responder = responder
    self.handler = handler
  }

  /// Queues `event`, and starts a task to hand it over unless one is running.
  func enqueue(_ event: Event) {
    let startsTask = state.withLock { state -> Bool in
      guard !state.isCancelled else { return false }
      state.events.append(event)
      guard !state.isDraining else { return false }
      state.isDraining = true
      return true
    }
    if startsTask {
      Task { await self.drain() }
    }
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
      return replacing(&state.events, with: RingBuffer())
    }
    _ = dropped  // released here, with no lock held: an event's deinit is user code
  }

  private func drain() async {
    while let event = next() {
      if let responder {
        await handler(responder, event)
      } else {
        // The actor deinitialised: its subscription ends with it, and the next `next()` stops the task.
        cancel()
      }
    }
  }

  /// The next event to hand over, or `nil`, which ends the task. The event handed over last has been handled.
  private func next() -> Event? {
    let (event, passedWaits) = state.withLock { state -> (Event?, [DeliveryWait]?) in
      let takesAnother = !state.isCancelled && !state.events.isEmpty
      let passedWaits = state.waits.isEmpty ? nil : state.waits.advance(takingAnother: takesAnother)
      guard takesAnother else {
        state.isDraining = false
        return (nil, passedWaits)
      }
      return (state.events.popFirst(), passedWaits)
    }
    DeliveryWait.arrive(passedWaits)
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

  var entryOwner: (any EntryOwner)? { upstream.entryOwner }
}
