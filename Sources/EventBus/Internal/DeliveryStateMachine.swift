/// One subscriber as the delivery state machine sees it: a slot in the subscriber list, and the flags of a round.
///
/// `slot` and `isRemoved` are read and written only under the owner's lock. `isSkippedForRound` and `wasFoundDead` belong to
/// the thread that holds the delivery (see ``DeliveryStateMachine``).
@usableFromInline
protocol DeliveryMember: AnyObject {
  /// Position in the subscriber list.
  var slot: Int32 { get set }
  /// Removed from the list: cancelled, or found dead.
  var isRemoved: Bool { get set }
  /// Cancelled by a handler on the delivering thread: skipped for the rest of the round.
  var isSkippedForRound: Bool { get set }
  /// Its responder was found deinitialised during the round.
  var wasFoundDead: Bool { get }
}

/// An output's delivery protocol: who delivers, what is queued, who is subscribed. Decided under the output's lock
/// and carried out by the caller with no lock held, as `ConnectionStateMachine` does for a broadcaster.
///
/// One thread at a time *holds the delivery*: the first `send` (or the first `subscribe` with events to replay)
/// that finds the machine idle. It delivers with no lock held, reports the end of the round
/// (``finishRound(deadFound:in:leftovers:)``) and carries out what that returns, the next queued event or replay window, until
/// it is `.idle`. Every other `send` meanwhile only queues its event, so events reach subscribers one at a time, in order, with constant stack depth for sends from
/// inside a handler (G2, G3). A subscriber added during a round is not in that round's snapshot (G5).
///
/// Values only: no lock, no user code, so every transition is unit-tested on its own.
@usableFromInline
struct DeliveryStateMachine<Event, Member: DeliveryMember> {
  /// The subscriber list as it was when a round started. `nil` marks a removed subscriber until compaction.
  @usableFromInline typealias Snapshot = ContiguousArray<Member?>

  /// What the thread that holds the delivery does next.
  @usableFromInline
  enum NextAction {
    /// Deliver this event to this snapshot, then report ``finishRound(deadFound:in:leftovers:)``.
    case deliver(Event, Snapshot)
    /// Hand a replay window to a subscriber that joined during a round, then report
    /// ``finishReplay(to:deadFound:leftovers:)``.
    case replay(ContiguousArray<Event>, Member)
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

    @inlinable
    init() {}
  }

  /// What `subscribe` asks of its caller.
  struct SubscribeAction {
    /// Events the caller hands to the new subscriber now, holding the delivery; then it calls
    /// ``finishReplay(to:deadFound:leftovers:)``. `nil` when there is nothing to replay or a round is running (the window then
    /// waits for the delivering thread).
    var replay: ContiguousArray<Event>?
    /// The list has doubled since the last prune: look for dead responders (``removeDead(_:)``).
    var shouldPrune: Bool
    var membershipObserver: (@Sendable () -> Void)?
  }

  /// Whether a call added or removed subscribers.
  enum MembershipChange {
    case unchanged
    /// Call the observer, if any, with no lock held.
    case changed((@Sendable () -> Void)?)
  }

  @usableFromInline
  struct Replay {
    @usableFromInline var events: ContiguousArray<Event>
    @usableFromInline var member: Member
  }

  static var minimumPruneThreshold: Int { 64 }

  /// How many sent events a new subscriber receives first.
  @usableFromInline let replayLimit: Int
  @usableFromInline private(set) var members: Snapshot = []
  /// Members not removed: the non-`nil` slots of `members`.
  @usableFromInline private(set) var memberCount = 0
  /// Events sent during a round, oldest first.
  @usableFromInline var pending = RingBuffer<Event>()
  /// Replay windows of subscribers that joined during a round.
  @usableFromInline var pendingReplays = RingBuffer<Replay>()
  /// The last `replayLimit` events delivered.
  @usableFromInline var replay = RingBuffer<Event>()
  @usableFromInline private(set) var deliveringThread: ThreadIdentity?
  /// When `memberCount` reaches it, the next subscribe prunes dead responders.
  private var pruneThreshold = minimumPruneThreshold
  @usableFromInline var trace: (@Sendable (Event) -> Void)?
  @usableFromInline var membershipObserver: (@Sendable () -> Void)?

  @usableFromInline
  init(replayLimit: Int) {
    self.replayLimit = Swift.max(0, replayLimit)
  }

  @inlinable
  var isDelivering: Bool { deliveringThread != nil }

  /// Events waiting for the delivering thread.
  @inlinable
  var pendingCount: Int { pending.count }

  // MARK: Sending

  /// An event was sent from `thread`. `.deliver` makes the caller the holder of the delivery.
  @inlinable
  mutating func send(_ event: Event, from thread: ThreadIdentity, leftovers: inout Leftovers) -> NextAction {
    guard deliveringThread == nil else {
      pending.append(event)
      return .idle
    }
    deliveringThread = thread
    if replayLimit > 0 {
      leftovers.droppedFromReplay = replay.append(event, keepingAtMost: replayLimit)
    }
    return .deliver(event, members)
  }

  /// The holder of the delivery finished a round over `snapshot`; `deadFound` says whether a responder was found
  /// deinitialised.
  @inlinable
  mutating func finishRound(deadFound: Bool, in snapshot: Snapshot, leftovers: inout Leftovers) -> NextAction {
    if deadFound, removeMembersFoundDead(in: snapshot) {
      leftovers.membershipObserver = membershipObserver
    }
    return next(leftovers: &leftovers)
  }

  /// The holder of the delivery handed a replay window to `member`; `deadFound` says whether its responder was
  /// found deinitialised.
  @usableFromInline
  mutating func finishReplay(to member: Member, deadFound: Bool, leftovers: inout Leftovers) -> NextAction {
    if deadFound, remove(member) {
      leftovers.membershipObserver = membershipObserver
    }
    return next(leftovers: &leftovers)
  }

  /// The next replay window or queued event for the holder of the delivery; `.idle` frees the delivery.
  @inlinable
  mutating func next(leftovers: inout Leftovers) -> NextAction {
    if !pendingReplays.isEmpty, let replay = nextReplay(releasing: &leftovers.cancelledReplays) {
      return .replay(replay.events, replay.member)
    }
    guard let event = pending.popFirst() else {
      deliveringThread = nil
      return .idle
    }
    if replayLimit > 0 {
      leftovers.droppedFromReplay = replay.append(event, keepingAtMost: replayLimit)
    }
    return .deliver(event, members)
  }

  /// The next replay window whose subscriber is still there; cancelled ones go to `released`.
  @usableFromInline
  mutating func nextReplay(releasing released: inout [Replay]?) -> Replay? {
    while let replay = pendingReplays.popFirst() {
      guard replay.member.isRemoved else { return replay }
      released = (released ?? []) + [replay]
    }
    return nil
  }

  @usableFromInline
  mutating func removeMembersFoundDead(in snapshot: Snapshot) -> Bool {
    var removedAny = false
    for case let member? in snapshot where member.wasFoundDead && remove(member) {
      removedAny = true
    }
    return removedAny
  }

  // MARK: Membership

  /// `member` subscribes from `thread`.
  mutating func subscribe(_ member: Member, from thread: ThreadIdentity) -> SubscribeAction {
    member.slot = Int32(truncatingIfNeeded: members.count)
    members.append(member)
    memberCount += 1
    var action = SubscribeAction(replay: nil, shouldPrune: false, membershipObserver: membershipObserver)
    if !replay.isEmpty {
      if deliveringThread == nil {
        deliveringThread = thread
        action.replay = replay.elements
      } else {
        pendingReplays.append(Replay(events: replay.elements, member: member))
      }
    }
    if memberCount >= pruneThreshold {
      // Raised now, so that concurrent subscribers don't all start a prune.
      pruneThreshold = memberCount * 2
      action.shouldPrune = true
    }
    return action
  }

  /// `member` is cancelled from `thread`; `.unchanged` if it was already gone.
  ///
  /// Cancelled on the delivering thread (from a handler, possibly several outputs deep), it is also skipped for the
  /// rest of the round (G4, G5).
  mutating func cancel(_ member: Member, from thread: ThreadIdentity) -> MembershipChange {
    guard remove(member) else { return .unchanged }
    if deliveringThread == thread {
      member.isSkippedForRound = true
    }
    return .changed(membershipObserver)
  }

  /// Removes members whose responder was seen deinitialised, and sets the next prune for when the list has doubled.
  mutating func removeDead(_ dead: [Member]) -> MembershipChange {
    var removedAny = false
    for member in dead where remove(member) {
      removedAny = true
    }
    pruneThreshold = Swift.max(Self.minimumPruneThreshold, memberCount * 2)
    return removedAny ? .changed(membershipObserver) : .unchanged
  }

  /// Removes `member` unless it is already gone. The caller holds a reference to it, so it is not freed here.
  ///
  /// - Complexity: O(1) amortised: the slot becomes `nil`, and the list is compacted once removed slots outnumber
  ///   live ones.
  @usableFromInline
  mutating func remove(_ member: Member) -> Bool {
    guard !member.isRemoved else { return false }
    member.isRemoved = true
    members[Int(member.slot)] = nil
    memberCount -= 1
    if members.count >= 32, memberCount * 2 < members.count {
      compact()
    }
    return true
  }

  private mutating func compact() {
    var compacted = Snapshot()
    compacted.reserveCapacity(Swift.max(memberCount * 2, 16))
    for case let member? in members {
      member.slot = Int32(truncatingIfNeeded: compacted.count)
      compacted.append(member)
    }
    members = compacted
  }
}

extension DeliveryStateMachine: Sendable where Event: Sendable, Member: Sendable {}
extension DeliveryStateMachine.Replay: Sendable where Event: Sendable, Member: Sendable {}
