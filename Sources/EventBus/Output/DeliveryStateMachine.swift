/// An output's events: what is queued for the thread that holds the delivery, and the replay window. Decided under
/// the output's lock and carried out by the caller with no lock held, as `ConnectionStateMachine` does for a
/// broadcaster.
///
/// One thread at a time *holds the delivery*: the first `send` (or the first `subscribe` with events to replay) that
/// finds the output idle. It delivers with no lock held, reports the end of the round
/// (``finishRound(deadFound:holder:subscribers:)``) and carries out the step that returns, the next queued event or
/// replay window, until it is `.idle`. Every other `send` meanwhile only queues its event, so events reach
/// subscribers one at a time, in order, with constant stack depth for sends from inside a handler (G2, G3).
///
/// The machine decides and never calls out, as swift-async-algorithms' channel machines do: a transition takes its
/// inputs (whether the caller claimed the delivery, the subscriber list) and returns one ``Step``, the action and what
/// the caller must release; every effect on the latch is the caller's (``DeliverySteps``), under the same lock. It
/// holds no user code, so every transition is unit-tested on its own. An output's common `send` claims and releases
/// the latch with no lock and never reaches the machine.
@usableFromInline
struct DeliveryStateMachine<Event> {
  /// What the thread that holds the delivery does next.
  @usableFromInline
  enum Action {
    /// Deliver this event to these entries (the list's ``SubscriberList/roundEntries``), then report
    /// ``finishRound(deadFound:holder:subscribers:)``.
    case deliver(Event, EntryList)
    /// Hand a replay window to a subscriber that joined, then report ``finishReplay(to:deadFound:holder:subscribers:)``.
    case replay(ContiguousArray<Event>, Entry)
    /// Nothing to do: after `send`, another thread holds the delivery and will deliver the queued event; at the end
    /// of a round, the queue is empty and the caller no longer holds the delivery.
    case idle
  }

  /// What every locked step returns: the action, and everything the step took out of the state. The caller carries
  /// out the action and drops the step after unlocking, so no `deinit` (user code) runs under the lock.
  @usableFromInline
  struct Step {
    @usableFromInline var action: Action
    /// What the subscriber list released, and the membership observer to call.
    @usableFromInline var change = SubscriberList.Change()
    /// An event that left the replay window.
    @usableFromInline var droppedEvent: Event?
    /// Replay windows of subscribers cancelled before their turn.
    @usableFromInline var droppedReplays: [Replay]?
    /// The output's trace hook, which a `send` calls.
    @usableFromInline var trace: (@Sendable (Event) -> Void)?
    /// Whether the holder keeps the delivery for this step's action, or lets it go: set when a round or a replay
    /// ended, for the caller to write to the latch (``DeliveryLatch/settle(holder:keeping:)``); `nil` otherwise.
    @usableFromInline var keepsDelivery: Bool?
    /// Waits for the holder that it has now passed (``waits``), for the caller to report after unlocking.
    @usableFromInline var passedWaits: [DeliveryWait]?

    @inlinable
    init(_ action: Action) {
      self.action = action
    }
  }

  @usableFromInline
  struct Replay {
    @usableFromInline var events: ContiguousArray<Event>
    @usableFromInline var entry: Entry
  }

  /// How many sent events a new subscriber receives first.
  @usableFromInline let replayCount: Int
  /// Events sent during a round, oldest first.
  @usableFromInline var pending = RingBuffer<Event>()
  /// Replay windows of subscribers that joined during a round.
  @usableFromInline var queuedReplays = RingBuffer<Replay>()
  /// The last `replayCount` events delivered.
  @usableFromInline var replay = RingBuffer<Event>()
  @usableFromInline var trace: (@Sendable (Event) -> Void)?
  /// Calls of `Output.waitUntilDelivered()` waiting for the holder to deliver what was queued for it when they came.
  @usableFromInline var waits = DeliveryWaitList()

  @usableFromInline
  init(replayCount: Int) {
    self.replayCount = Swift.max(0, replayCount)
  }

  /// Events waiting for the delivering thread.
  @inlinable
  var pendingCount: Int { pending.count }

  // MARK: Sending

  /// An event was sent, on the path that takes the lock; `claimed` says whether the sender just claimed the delivery
  /// (else it marked the work queued for the holder). `.deliver` makes the caller the holder of the delivery.
  @inlinable
  mutating func send(_ event: Event, claimed: Bool, subscribers: borrowing SubscriberList) -> Step {
    guard claimed else {
      pending.append(event)
      var step = Step(.idle)
      step.trace = trace
      return step
    }
    var step = Step(.deliver(event, subscribers.roundEntries))
    step.droppedEvent = record(event)
    step.trace = trace
    return step
  }

  /// The holder of the delivery finished a round over the round's entries; `deadFound` says whether a responder was
  /// found deinitialised.
  @inlinable
  mutating func finishRound(
    deadFound: Bool, holder: borrowing DeliveryHolder, subscribers: inout SubscriberList
  ) -> Step {
    next(after: subscribers.finishRound(deadFound: deadFound, holder: holder), subscribers: subscribers)
  }

  /// The holder of the delivery handed a replay window to `entry`; `deadFound` says whether its responder was found
  /// deinitialised.
  @usableFromInline
  mutating func finishReplay(
    to entry: Entry, deadFound: Bool, holder: borrowing DeliveryHolder, subscribers: inout SubscriberList
  ) -> Step {
    // A dead entry is removed first, from the changed copy (the holder keeps the round's list frozen), and the copy
    // is then installed with any change made meanwhile: a change left behind would outlive the delivery.
    let removed = deadFound ? subscribers.remove(entry).removed : nil
    var change = subscribers.finishRound(deadFound: false, holder: holder)
    if removed != nil {
      change.removed = removed
      change.membershipObserver = subscribers.membershipObserver
    }
    return next(after: change, subscribers: subscribers)
  }

  /// The next replay window or queued event for the holder of the delivery; `.idle` frees the delivery.
  @inlinable
  mutating func next(after change: SubscriberList.Change, subscribers: borrowing SubscriberList) -> Step {
    var droppedReplays: [Replay]?
    if !queuedReplays.isEmpty, let replay = nextReplay(dropping: &droppedReplays) {
      var step = Step(.replay(replay.events, replay.entry))
      step.keepsDelivery = true
      step.change = change
      step.droppedReplays = droppedReplays
      step.passedWaits = passWaits(takingAnother: true)
      return step
    }
    guard let event = pending.popFirst() else {
      var step = Step(.idle)
      step.keepsDelivery = false
      step.change = change
      step.droppedReplays = droppedReplays
      step.passedWaits = passWaits(takingAnother: false)
      return step
    }
    var step = Step(.deliver(event, subscribers.roundEntries))
    step.keepsDelivery = true
    step.change = change
    step.droppedEvent = record(event)
    step.droppedReplays = droppedReplays
    step.passedWaits = passWaits(takingAnother: true)
    return step
  }

  /// The round or replay that ended was the item the waits were behind, and the holder takes another or stops.
  @inlinable @inline(__always)
  mutating func passWaits(takingAnother: Bool) -> [DeliveryWait]? {
    waits.isEmpty ? nil : waits.advance(takingAnother: takingAnother)
  }

  /// A call of `Output.waitUntilDelivered()` waits for the holder of the delivery, which the caller has marked: to
  /// finish its round or replay, then the replay windows and events queued for it now.
  mutating func wait(_ wait: DeliveryWait) {
    waits.add(wait, behind: queuedReplays.count + pending.count)
  }

  /// Adds `event`, about to be delivered, to the replay window; returns the event that left it.
  @inlinable
  mutating func record(_ event: Event) -> Event? {
    guard replayCount > 0 else { return nil }
    return replay.append(event, keepingAtMost: replayCount)
  }

  /// The next replay window whose subscriber is still there; cancelled ones go to `dropped`.
  @usableFromInline
  mutating func nextReplay(dropping dropped: inout [Replay]?) -> Replay? {
    while let replay = queuedReplays.popFirst() {
      if !replay.entry.isRemoved {
        return replay
      }
      dropped = (dropped ?? []) + [replay]
    }
    return nil
  }

  // MARK: Membership

  /// Whether a subscriber that joins now has a replay window to receive: then the caller claims the delivery, or
  /// marks work queued for its holder, and reports which with ``subscribed(_:claimed:)``.
  var hasReplayWindow: Bool { !replay.isEmpty }

  /// `entry` joined an output with a replay window; `claimed` says whether the caller claimed the delivery, to hand
  /// the window over itself (`.replay`), or left it queued for the holder. An output without a window calls the list
  /// directly (``SubscriberList/add(_:at:)``).
  mutating func subscribed(_ entry: Entry, claimed: Bool) -> Step {
    guard claimed else {
      queuedReplays.append(Replay(events: replay.elements, entry: entry))
      return Step(.idle)
    }
    return Step(.replay(replay.elements, entry))
  }
}

extension DeliveryStateMachine: Sendable where Event: Sendable {}
extension DeliveryStateMachine.Replay: Sendable where Event: Sendable {}
