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
