/// An output's delivery protocol: who delivers, what is queued, who is subscribed. Decided under the output's lock
/// and carried out by the caller with no lock held, as `ConnectionStateMachine` does for a broadcaster.
///
/// One thread at a time *holds the delivery*: the first `send` (or the first `subscribe` with events to replay)
/// that finds the machine idle. It delivers with no lock held, reports the end of the round
/// (``finishRound(deadFound:leftovers:)``) and carries out what that returns, the next queued event or replay
/// window, until it is `.idle`. Every other `send` meanwhile only queues its event, so events reach subscribers one
/// at a time, in order, with constant stack depth for sends from inside a handler (G2, G3). A subscriber added during
/// a round is not in that round's list (G5).
///
/// Who holds the delivery is the roster's ``DeliveryLatch``: an output's common `send` claims and releases it with
/// no lock and never reaches the machine (`Output.send`). Everything else is here: no user code, so every transition
/// is unit-tested on its own.
@usableFromInline
struct DeliveryStateMachine<Event> {
  /// The subscriber list as it was when a round started. `nil` marks a removed subscriber until compaction.
  @usableFromInline typealias Snapshot = ContiguousArray<DeliveryMember?>

  /// What the thread that holds the delivery does next.
  @usableFromInline
  enum NextAction {
    /// Deliver this event to this snapshot (the roster's published list), then report
    /// ``finishRound(deadFound:leftovers:)``.
    case deliver(Event, Snapshot)
    /// Hand a replay window to a subscriber that joined during a round, then report
    /// ``finishReplay(to:deadFound:leftovers:)``.
    case replay(ContiguousArray<Event>, DeliveryMember)
    /// Nothing to do: after `send`, another thread holds the delivery and will deliver the queued event; at the end
    /// of a round, the queue is empty and the caller no longer holds the delivery.
    case idle
  }

  /// What a step took out of the state or wants reported; the caller drops it, and calls the observer, with no lock
  /// held (an event's or a handler's deinit is user code, and so is the observer).
  @usableFromInline
  struct Leftovers {
    /// An event that left the replay window.
    @usableFromInline var droppedFromReplay: Event?
    /// Replay windows of subscribers cancelled before their turn.
    @usableFromInline var cancelledReplays: [Replay]?
    /// Set when the step removed subscribers: report the change of membership.
    @usableFromInline var membershipObserver: (@Sendable () -> Void)?
    /// The list a round delivered to, replaced by the one staged during the round.
    @usableFromInline var retiredMembers: Snapshot?

    @inlinable
    init() {}
  }

  /// What `subscribe` asks of its caller.
  struct SubscribeAction {
    /// Events the caller hands to the new subscriber now, holding the delivery; then it calls
    /// ``finishReplay(to:deadFound:leftovers:)``. `nil` when there is nothing to replay or a round is running (the
    /// window then waits for the delivering thread).
    var replay: ContiguousArray<Event>?
    /// The list has doubled since the last prune: look for dead responders (``DeliveryRoster/removeDead(_:)``).
    var shouldPrune: Bool
    var membershipObserver: (@Sendable () -> Void)?
  }

  @usableFromInline
  struct Replay {
    @usableFromInline var events: ContiguousArray<Event>
    @usableFromInline var member: DeliveryMember
  }

  /// Who is subscribed and who holds the delivery. First, and not generic: a subscribe or cancel reaches it with no
  /// generic metadata (see `DeliveryRoster`).
  @usableFromInline var roster = DeliveryRoster()
  /// How many sent events a new subscriber receives first.
  @usableFromInline let replayLimit: Int
  /// Events sent during a round, oldest first.
  @usableFromInline var pending = RingBuffer<Event>()
  /// Replay windows of subscribers that joined during a round.
  @usableFromInline var pendingReplays = RingBuffer<Replay>()
  /// The last `replayLimit` events delivered.
  @usableFromInline var replay = RingBuffer<Event>()
  @usableFromInline var trace: (@Sendable (Event) -> Void)?

  @usableFromInline
  init(replayLimit: Int) {
    self.replayLimit = Swift.max(0, replayLimit)
  }

  /// Whether a thread holds the delivery.
  var isDelivering: Bool { roster.latch.isHeld }

  /// The subscribers as of now, changes made during a running round included.
  @inlinable
  var members: Snapshot { roster.members }

  @inlinable
  var memberCount: Int { roster.memberCount }

  @inlinable
  var membershipObserver: (@Sendable () -> Void)? {
    get { roster.membershipObserver }
    set { roster.membershipObserver = newValue }
  }

  /// Events waiting for the delivering thread.
  @inlinable
  var pendingCount: Int { pending.count }

  // MARK: Sending

  /// An event was sent from `thread`, on the path that takes the lock. `.deliver` makes the caller the holder of the
  /// delivery.
  @inlinable
  mutating func send(_ event: Event, from thread: ThreadIdentity, leftovers: inout Leftovers) -> NextAction {
    guard roster.latch.claimOrMarkPending(for: thread) else {
      pending.append(event)
      return .idle
    }
    if replayLimit > 0 {
      leftovers.droppedFromReplay = replay.append(event, keepingAtMost: replayLimit)
    }
    return .deliver(event, roster.published)
  }

  /// The holder of the delivery, `thread`, finished a round over the published list; `deadFound` says whether a
  /// responder was found deinitialised.
  @inlinable
  mutating func finishRound(deadFound: Bool, by thread: ThreadIdentity, leftovers: inout Leftovers) -> NextAction {
    let (retired, removedAny) = roster.finishRound(deadFound: deadFound)
    leftovers.retiredMembers = retired
    if removedAny {
      leftovers.membershipObserver = roster.membershipObserver
    }
    return next(for: thread, leftovers: &leftovers)
  }

  /// The holder of the delivery handed a replay window to `member`; `deadFound` says whether its responder was
  /// found deinitialised.
  @usableFromInline
  mutating func finishReplay(
    to member: DeliveryMember, deadFound: Bool, by thread: ThreadIdentity, leftovers: inout Leftovers
  ) -> NextAction {
    // Replays run while the holder keeps the delivery, so the list may have been staged meanwhile.
    let (retired, _) = roster.finishRound(deadFound: false)
    leftovers.retiredMembers = retired
    if deadFound, roster.removeIfPresent(member) {
      leftovers.membershipObserver = roster.membershipObserver
    }
    return next(for: thread, leftovers: &leftovers)
  }

  /// The next replay window or queued event for the holder of the delivery, `thread`; `.idle` frees the delivery.
  @inlinable
  mutating func next(for thread: ThreadIdentity, leftovers: inout Leftovers) -> NextAction {
    if !pendingReplays.isEmpty, let replay = nextReplay(releasing: &leftovers.cancelledReplays) {
      roster.latch.settle(holder: thread, keeping: true)
      return .replay(replay.events, replay.member)
    }
    guard let event = pending.popFirst() else {
      roster.latch.settle(holder: thread, keeping: false)
      return .idle
    }
    if replayLimit > 0 {
      leftovers.droppedFromReplay = replay.append(event, keepingAtMost: replayLimit)
    }
    roster.latch.settle(holder: thread, keeping: true)
    return .deliver(event, roster.published)
  }

  /// The next replay window whose subscriber is still there; cancelled ones go to `released`.
  @usableFromInline
  mutating func nextReplay(releasing released: inout [Replay]?) -> Replay? {
    while let replay = pendingReplays.popFirst() {
      if !replay.member.isRemoved {
        return replay
      }
      released = (released ?? []) + [replay]
    }
    return nil
  }

  // MARK: Membership

  /// `member` subscribes at `location` from `thread`. With a replay window, the caller may become the holder of the
  /// delivery to hand it over; an output without one calls the roster directly (``DeliveryRoster/add(_:at:)``).
  mutating func subscribe(
    _ member: DeliveryMember, at location: CallSite, from thread: ThreadIdentity
  ) -> SubscribeAction {
    let addition = roster.add(member, at: location)
    var action = SubscribeAction(
      replay: nil, shouldPrune: addition.shouldPrune, membershipObserver: addition.membershipObserver)
    if !replay.isEmpty {
      if roster.latch.claimOrMarkPending(for: thread) {
        action.replay = replay.elements
      } else {
        pendingReplays.append(Replay(events: replay.elements, member: member))
      }
    }
    return action
  }
}

extension DeliveryStateMachine: Sendable where Event: Sendable {}
extension DeliveryStateMachine.Replay: Sendable where Event: Sendable {}
