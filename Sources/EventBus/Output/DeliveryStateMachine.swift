/// What an output's delivery does next: which events, replay windows and waits are queued for the thread that holds
/// the delivery, and what that thread takes next. Decided under the output's lock, carried out by ``DeliveryStorage``
/// after unlocking, as swift-async-algorithms' channel machines do.
///
/// One thread at a time *holds the delivery*: the first `send` (or the first `subscribe` with events to replay) that
/// finds the output idle. It delivers with no lock held, reports the end of the round (``finishRound()``) and carries
/// out the next action, until it is told to release. Every other `send` meanwhile only queues its event, so events
/// reach subscribers one at a time, in order, with constant stack depth for sends from inside a handler (G2, G3).
///
/// The machine decides and never calls out: it holds no user code and no lock, touches neither the latch nor the
/// list, and each transition takes its inputs (whether the caller claimed the delivery) and returns one action, which
/// carries everything the transition took out of the state for the caller to drop after unlocking. So every transition
/// is tested with values alone (`DeliveryStateMachineTests`).
///
/// An output's common `send` claims and releases the delivery with no lock and never reaches the machine: its state
/// `.idle` means that nothing is queued for a holder, not that nobody holds the delivery.
@usableFromInline
struct DeliveryStateMachine<Event: Sendable> {
  /// What waits for the thread that holds the delivery, oldest first.
  @usableFromInline
  struct Backlog {
    /// Events sent while a thread held the delivery.
    @usableFromInline var events = RingBuffer<Event>()
    /// Replay windows of subscribers that joined while a thread held the delivery.
    @usableFromInline var replays = RingBuffer<Replay>()
    /// Calls of `Output.waitUntilDelivered()` waiting for the holder to deliver what was queued when they came.
    @usableFromInline var waits = DeliveryWaitList()

    @usableFromInline init() {}
  }

  /// A replay window for a subscriber that joined: the events it receives before the live ones.
  @usableFromInline
  struct Replay {
    @usableFromInline var events: ContiguousArray<Event>
    @usableFromInline var entry: Output<Event>.EventEntry
  }

  @usableFromInline
  enum State {
    /// Nothing is queued for a holder. A lock-free `send` may hold the delivery meanwhile; the machine never sees
    /// its rounds. The backlog is empty, kept for its capacity.
    case idle(Backlog)
    /// A thread holds the delivery through a locked step, or work was queued for the holder: it takes the backlog,
    /// one item at a time, before it releases.
    case delivering(Backlog)
    /// Only inside a transition, so the backlog is changed in place, never copied.
    case transitioning
  }

  /// What a `send` on the locked path does next.
  @usableFromInline
  enum SendAction {
    /// The sender claimed the delivery: deliver the event, then report ``finishRound()``. `evicted` left the replay
    /// window.
    case deliver(Event, evicted: Event?)
    /// Another thread holds the delivery and will deliver the event, now queued.
    case queued
  }

  /// What a subscribe to an output with a replay window does next.
  @usableFromInline
  enum SubscribeAction {
    /// The subscriber claimed the delivery: hand it the window, then report ``finishRound()``.
    case replay(ContiguousArray<Event>, to: Output<Event>.EventEntry)
    /// Another thread holds the delivery and will hand the window over, now queued.
    case queued
  }

  /// What the holder of the delivery does at the end of a round or a replay. Every case carries what the transition
  /// took out of the state, for the caller to drop after unlocking.
  @usableFromInline
  enum FinishRoundAction {
    /// Deliver the next queued event, then report ``finishRound()`` again.
    case deliver(Event, Released)
    /// Hand a queued replay window to its subscriber, then report ``finishRound()`` again.
    case replay(ContiguousArray<Event>, to: Output<Event>.EventEntry, Released)
    /// Nothing is queued: let the delivery go.
    case release(Released)
  }

  /// What a call of `waitUntilDelivered()` does first.
  enum WaitAction: Equatable {
    /// Suspend until the holder has delivered what is queued for it now: the machine keeps the wait.
    case waitForHolder
    /// Nobody holds the delivery: everything sent has been handed to every subscriber.
    case nothingToWaitFor
  }

  /// What a transition took out of the state: the caller drops it, and reports the waits, after unlocking.
  @usableFromInline
  struct Released {
    /// Waits the holder has now passed, to resume.
    @usableFromInline var passedWaits: [DeliveryWait]?
    /// The event that left the replay window.
    @usableFromInline var evicted: Event?
    /// Replay windows of subscribers cancelled before their turn.
    @usableFromInline var droppedReplays: [Replay]?

    @usableFromInline init() {}
  }

  @usableFromInline private(set) var state = State.idle(Backlog())
  /// How many sent events a new subscriber receives first.
  @usableFromInline let replayCount: Int
  /// The last `replayCount` events delivered.
  @usableFromInline private(set) var replayWindow = RingBuffer<Event>()

  @usableFromInline
  init(replayCount: Int) {
    self.replayCount = Swift.max(0, replayCount)
  }

  /// Events queued for the holder of the delivery.
  @inlinable
  var pendingCount: Int {
    switch state {
    case .idle, .transitioning: 0
    case .delivering(let backlog): backlog.events.count
    }
  }

  /// Calls of `waitUntilDelivered()` the machine keeps for the holder.
  var waitCount: Int {
    switch state {
    case .idle(let backlog), .delivering(let backlog): backlog.waits.count
    case .transitioning: 0
    }
  }

  /// Whether a subscriber that joins now has a replay window to receive: then the caller claims the delivery, or
  /// marks work queued for its holder, and reports which with ``subscribe(_:claimed:)``.
  var hasReplayWindow: Bool { !replayWindow.isEmpty }

  // MARK: Transitions

  /// An event was sent, on the path that takes the lock; `claimed` says whether the sender just claimed the delivery
  /// (else it marked work queued for the holder).
  @inlinable
  mutating func send(_ event: Event, claimed: Bool) -> SendAction {
    var backlog = takeBacklog()
    defer { state = .delivering(backlog) }
    guard claimed else {
      backlog.events.append(event)
      return .queued
    }
    return .deliver(event, evicted: record(event))
  }

  /// `entry` joined an output with a replay window (``hasReplayWindow``); `claimed` says whether the caller claimed
  /// the delivery, to hand the window over itself, or marked work queued for the holder.
  mutating func subscribe(_ entry: Output<Event>.EventEntry, claimed: Bool) -> SubscribeAction {
    var backlog = takeBacklog()
    defer { state = .delivering(backlog) }
    guard claimed else {
      backlog.replays.append(Replay(events: replayWindow.elements, entry: entry))
      return .queued
    }
    return .replay(replayWindow.elements, to: entry)
  }

  /// The holder of the delivery finished a round or a replay: it takes the next replay window of a subscriber still
  /// there, or the next queued event, or releases the delivery.
  @inlinable
  mutating func finishRound() -> FinishRoundAction {
    var backlog = takeBacklog()
    var released = Released()
    if !backlog.replays.isEmpty, let replay = Self.nextReplay(in: &backlog, dropping: &released.droppedReplays) {
      released.passedWaits = Self.passWaits(in: &backlog, takingAnother: true)
      state = .delivering(backlog)
      return .replay(replay.events, to: replay.entry, released)
    }
    guard let event = backlog.events.popFirst() else {
      released.passedWaits = Self.passWaits(in: &backlog, takingAnother: false)
      state = .idle(backlog)
      return .release(released)
    }
    released.passedWaits = Self.passWaits(in: &backlog, takingAnother: true)
    released.evicted = record(event)
    state = .delivering(backlog)
    return .deliver(event, released)
  }

  /// A call of `waitUntilDelivered()` came; `isDelivering` says whether a thread holds the delivery, which the caller
  /// has then marked, so that the holder reports ``finishRound()`` when its round ends.
  mutating func wait(_ wait: DeliveryWait, isDelivering: Bool) -> WaitAction {
    guard isDelivering else { return .nothingToWaitFor }
    var backlog = takeBacklog()
    backlog.waits.add(wait, behind: backlog.replays.count + backlog.events.count)
    state = .delivering(backlog)
    return .waitForHolder
  }

  /// The task of `wait` was cancelled: the machine forgets it.
  mutating func cancel(_ wait: DeliveryWait) {
    var backlog = takeBacklog()
    backlog.waits.remove(wait)
    state = backlog.isEmpty ? .idle(backlog) : .delivering(backlog)
  }

  // MARK: Helpers

  /// Takes the backlog out of the state, which is `.transitioning` until the transition puts it back.
  @inlinable @inline(__always)
  mutating func takeBacklog() -> Backlog {
    switch replacing(&state, with: .transitioning) {
    case .idle(let backlog), .delivering(let backlog): backlog
    case .transitioning: preconditionFailure("EventBus: a delivery transition began inside another")
    }
  }

  /// The waits the holder passed by finishing the item they were behind, as it takes another or stops.
  @inlinable @inline(__always)
  static func passWaits(in backlog: inout Backlog, takingAnother: Bool) -> [DeliveryWait]? {
    backlog.waits.isEmpty ? nil : backlog.waits.advance(takingAnother: takingAnother)
  }

  /// Adds `event`, about to be delivered, to the replay window; returns the event that left it.
  @inlinable
  mutating func record(_ event: Event) -> Event? {
    guard replayCount > 0 else { return nil }
    return replayWindow.append(event, keepingAtMost: replayCount)
  }

  /// The next replay window whose subscriber is still there; cancelled ones go to `dropped`.
  @usableFromInline
  static func nextReplay(in backlog: inout Backlog, dropping dropped: inout [Replay]?) -> Replay? {
    while let replay = backlog.replays.popFirst() {
      if !replay.entry.isRemoved {
        return replay
      }
      dropped = (dropped ?? []) + [replay]
    }
    return nil
  }
}

extension DeliveryStateMachine.Backlog {
  /// Whether nothing waits for the holder.
  @inlinable
  var isEmpty: Bool { events.isEmpty && replays.isEmpty && waits.isEmpty }
}

extension DeliveryStateMachine: Sendable {}
extension DeliveryStateMachine.State: Sendable {}
extension DeliveryStateMachine.Backlog: Sendable {}
extension DeliveryStateMachine.Replay: Sendable {}
