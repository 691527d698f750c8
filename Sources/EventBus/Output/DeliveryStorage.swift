import Dispatch

/// The one owner of an output's delivery: the only type that touches the latch (who holds the delivery), the round's
/// list and what the holder alone may read (``RoundList``), and the state behind the output's lock.
///
/// Shaped like swift-async-algorithms' channel storage: each step locks, asks the value types what to do
/// (``DeliveryStateMachine`` for events, replays and waits; ``SubscriberList`` for membership), and acts after
/// unlocking, on the value the step returned, which carries the action and everything the step took out of the state.
/// That value is dropped after the lock is released, so no `deinit` (user code) runs under it (G8).
///
/// The common `send` takes no lock: it claims the latch, delivers to the round's list, and lets the latch go, unless
/// meanwhile a change was made or an event queued for it (``DeliveryLatch``).
@usableFromInline
final class DeliveryStorage<Event: Sendable> {
  @usableFromInline typealias Machine = DeliveryStateMachine<Event>

  /// The state behind the output's lock.
  @usableFromInline
  struct State: Sendable {
    /// First, and not generic: a subscribe or a cancel, which run unspecialised, reach it with no generic metadata.
    @usableFromInline var subscribers = SubscriberList()
    @usableFromInline var machine: Machine
    @usableFromInline var trace: (@Sendable (Event) -> Void)?
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

  @usableFromInline let state: LockedState<State>
  /// Who holds the delivery: claimed and let go with no lock by a `send` that needs nothing else.
  @usableFromInline let latch = DeliveryLatch()
  /// The entries a round delivers to, read with no lock by the thread that holds the delivery.
  @usableFromInline let round = RoundList<Event>()
  /// Whether sends record a replay window: then every send takes the lock.
  let hasReplayWindow: Bool

  init(replayCount: Int) {
    hasReplayWindow = replayCount > 0
    latch.setSendNeedsLock(hasReplayWindow, for: DeliveryLatch.replayWindowReason)
    state = LockedState(State(machine: Machine(replayCount: replayCount)))
  }

  // MARK: Sending

  /// Claims the delivery for a `send` from `thread` with no lock, if the output is idle and the send has nothing to
  /// record (no replay window, no trace): then the caller delivers (``deliver(_:holder:isLockFree:)``).
  @inlinable @inline(__always)
  func claimWithNoLock(for thread: ThreadIdentity) -> DeliveryHolder? {
    guard !latch.sendNeedsLock else { return nil }
    return latch.tryClaim(for: thread)
  }

  /// A `send` that could not claim the delivery with no lock: under the lock, it claims the delivery or queues the
  /// event for the thread that holds it, records the event in the replay window, and calls the trace hook after.
  @inlinable
  func sendWithLock(_ event: Event, from thread: ThreadIdentity) {
    var action = Machine.SendAction.queued
    var trace: (@Sendable (Event) -> Void)?
    let holder = state.withLock { state in
      let holder = latch.claimOrMarkWorkQueued(for: thread)
      let claimed = holder != nil
      action = state.machine.send(event, claimed: claimed)
      trace = state.trace
      return holder
    }
    trace?(event)
    guard let holder, case .deliver(let event, let evicted) = action else { return }
    _ = evicted  // released here, with no lock held
    deliver(event, holder: holder, isLockFree: false)
  }

  /// Delivers `event` to the round's entries, then, as the holder of the delivery, everything queued for it meanwhile,
  /// until the machine says to release. `isLockFree`: the holder claimed with no lock, and lets go with none if the
  /// round leaves nothing to do.
  ///
  /// The hot loop of the library, inlined into the caller's module and specialised for its event type. The list holds
  /// every entry for the whole loop, so each entry is borrowed rather than retained and released. A token-owned
  /// entry's handler is called from here, chosen by its route, rather than through a virtual call into the entry.
  /// The loop is written here, in the function `Output.send` calls, so that a debugger stopped in a handler shows one
  /// frame of the library's between `send` and the entry.
  ///
  /// Each action is dropped when the next one replaces it, after the lock that made the next one is released: an
  /// action may hold the last reference to a removed entry, an event or a list, whose `deinit` is user code.
  @inlinable @inline(__always)
  func deliver(_ event: Event, holder: consuming DeliveryHolder, isLockFree: Bool) {
    var event = event
    var isLockFree = isLockFree
    while true {
      var lanesLeft = round.beginRound(holder)
      let elements = round.list.pointee.elements
      var deadFound = false
      if let base = UnsafeRawPointer(elements.baseAddress) {
        // Each slot is an `Entry?`: one nullable object pointer, read as a raw pointer. An optimised build borrows
        // the entry through a closure the compiler inlines. A debug build, which would show that closure as two
        // unnamed frames between a handler and `send`, retains the entry for the call instead.
        for offset in 0..<elements.count {
          guard
            let object = base.load(
              fromByteOffset: offset &* MemoryLayout<UnsafeRawPointer?>.stride, as: UnsafeRawPointer?.self)
          else { continue }
          #if DEBUG
            let isComplete = Self.deliver(
              event, to: Unmanaged<Output<Event>.EventEntry>.fromOpaque(object).takeUnretainedValue(), at: offset,
              in: round, holder: holder, deadFound: &deadFound, lanesLeft: &lanesLeft)
          #else
            let isComplete = Unmanaged<Output<Event>.EventEntry>.fromOpaque(object)._withUnsafeGuaranteedRef { entry in
              Self.deliver(
                event, to: entry, at: offset, in: round, holder: holder, deadFound: &deadFound, lanesLeft: &lanesLeft)
            }
          #endif
          if isComplete { break }
        }
      }
      if isLockFree {
        if !deadFound, latch.tryRelease(holder) { return }
        isLockFree = false
      }
      guard let next = finishRounds(after: deadFound, holder: holder) else { return }
      event = next
    }
  }

  /// Reports the end of the holder's round, which found a responder deinitialised if `deadFound`, and hands every
  /// replay window queued meanwhile to its subscriber. Returns the next event to deliver, or `nil` once the machine
  /// said to release. Called by the holder of the delivery, with no lock held.
  @inlinable
  func finishRounds(after deadFound: Bool, holder: borrowing DeliveryHolder) -> Event? {
    var deadFound = deadFound
    while true {
      let (action, change) = state.withLock { state in finishRound(deadFound: deadFound, holder: holder, &state) }
      change.membershipObserver?()
      switch action {
      case .deliver(let event, let released):
        DeliveryWait.arrive(released.passedWaits)
        return event
      case .replay(let events, let entry, let released):
        DeliveryWait.arrive(released.passedWaits)
        deadFound = replay(events, to: entry, holder: holder)
      case .release(let released):
        DeliveryWait.arrive(released.passedWaits)
        return nil
      }
    }
  }

  /// The end of a round or a replay, under the lock: installs the list changed during it, removes the entries it found
  /// dead, and asks the machine what the holder does next, which the latch then records.
  @inlinable
  func finishRound(
    deadFound: Bool, holder: borrowing DeliveryHolder, _ state: inout State
  ) -> (Machine.FinishRoundAction, SubscriberList.Change) {
    var change = SubscriberList.Change()
    if let changedEntries = state.subscribers.changedEntries.take() {
      // Made under the lock from a copy, so no lane has taken its buffer.
      change.retired = round.install(changedEntries)
    }
    let dead = round.endRound(holder)
    if !dead.isEmpty {
      // `dead` keeps the removed entries until the caller drops the change, after unlocking.
      let removal = round.change { entries in state.subscribers.removeDead(dead, from: &entries) }
      change.membershipObserver = removal.result.membershipObserver
      change.removedDead = dead
      if let retired = removal.retired {
        // No list was installed just now (an installed list is no lane's), so this is the only list retired.
        change.retired = retired
      }
    }
    let action = state.machine.finishRound()
    if case .release = action {
      latch.settle(holder, keeping: false)
    } else {
      latch.settle(holder, keeping: true)
    }
    return (action, change)
  }

  /// Hands a replay window to one entry that just subscribed. Returns whether its responder was found deinitialised.
  @usableFromInline
  func replay(
    _ events: ContiguousArray<Event>, to entry: Output<Event>.EventEntry, holder: borrowing DeliveryHolder
  ) -> Bool {
    for event in events where !round.isSkipped(entry, holder) {
      if !entry.receiveReplayed(event) {
        round.markDead(entry, holder)
        return true
      }
    }
    return false
  }

  /// The hook called on the sending thread for every `send`.
  var trace: (@Sendable (Event) -> Void)? {
    get { state.withLock { $0.trace } }
    set {
      let old = state.withLock { state in
        latch.setSendNeedsLock(newValue != nil, for: DeliveryLatch.traceReason)
        return replacing(&state.trace, with: newValue)
      }
      _ = old  // released here, with no lock held: the hook's captures may have a deinit
    }
  }

  /// Events waiting for the thread that delivers.
  var pendingCount: Int {
    state.withLock { $0.machine.pendingCount }
  }

  // MARK: Membership

  /// Adds `entry`, which subscribed at `location`; hands it the replay window, if there is one.
  func add(_ entry: Output<Event>.EventEntry, at location: CallSite) {
    LiveObjects.subscribed("Output.Entry", object: ObjectIdentifier(entry), at: location)
    guard hasReplayWindow else {
      let change = state.withLock { state in
        changeEntries(&state) { subscribers, entries in subscribers.add(entry, at: location, to: &entries) }
      }
      return finish(change)
    }
    addReplaying(entry, at: location)
  }

  /// `add` for an output with a replay window: the new entry may have events to receive first. Kept out of `add`,
  /// whose unspecialised code would otherwise look up the generic action type's metadata on every subscribe.
  @inline(never)
  private func addReplaying(_ entry: Output<Event>.EventEntry, at location: CallSite) {
    let thread = ThreadIdentity.current
    var action = Machine.SubscribeAction.queued
    var change = SubscriberList.Change()
    let holder = state.withLock { state -> DeliveryHolder? in
      change = changeEntries(&state) { subscribers, entries in subscribers.add(entry, at: location, to: &entries) }
      guard state.machine.hasReplayWindow else { return nil }
      let holder = latch.claimOrMarkWorkQueued(for: thread)
      let claimed = holder != nil
      action = state.machine.subscribe(entry, claimed: claimed)
      return holder
    }
    finish(change)
    guard let holder, case .replay(let events, let entry) = action else { return }
    guard let next = finishRounds(after: replay(events, to: entry, holder: holder), holder: holder) else { return }
    deliver(next, holder: holder, isLockFree: false)
  }

  /// Removes `entry`; called by its token's, its handle's or its own `cancel()`, from `thread`, the caller. Nothing
  /// changes if it was gone.
  ///
  /// Cancelled on the delivering thread (from a handler, possibly several outputs deep), it is also skipped for the
  /// rest of the round (G4, G5).
  func remove(_ entry: Entry, from thread: ThreadIdentity = .current) {
    let change = state.withLock { state in
      let change = changeEntries(&state) { subscribers, entries in subscribers.remove(entry, from: &entries) }
      if change.removed != nil, let holder = latch.holder(ifHeldBy: thread) {
        round.skip(entry, holder)
      }
      return change
    }
    finish(change)
  }

  /// Removes subscriptions whose responder has deinitialised.
  ///
  /// Weak references are read outside the lock: reading one retains the responder, and the matching release could
  /// run its `deinit`, which is user code.
  func pruneDeadEntries() {
    var dead = EntryList()
    for entry in entries where !entry.isTargetAlive {
      dead.append(entry)
    }
    guard !dead.isEmpty else { return }
    let change = state.withLock { state in
      changeEntries(&state) { subscribers, entries in subscribers.removeDead(dead, from: &entries) }
    }
    finish(change)
  }

  /// Runs `body` on the current list: in place when nobody holds the delivery, else on the changed copy, which the
  /// holder installs when its round ends. Under the lock.
  private func changeEntries(
    _ state: inout State, _ body: (inout SubscriberList, inout EntryList) -> SubscriberList.Change
  ) -> SubscriberList.Change {
    if state.subscribers.changedEntries == nil, latch.beginChangingEntries() {
      let (result, retired) = round.change { entries in body(&state.subscribers, &entries) }
      latch.endChangingEntries()
      var change = result
      change.retired = retired
      return change
    }
    // The copy is made here, under the lock, and no lane takes it before the holder installs it.
    var entries = state.subscribers.changedEntries.take() ?? RoundList<Event>.freshCopy(of: round.entries)
    let change = body(&state.subscribers, &entries)
    state.subscribers.changedEntries = entries
    return change
  }

  /// What a membership change leaves to do after unlocking: a prune when the list has doubled, the observer, and
  /// dropping what the change took out.
  private func finish(_ change: consuming SubscriberList.Change) {
    if change.shouldPrune {
      pruneDeadEntries()
    }
    change.membershipObserver?()
  }

  /// The subscribers as of now, changes made during a running round included, with where each subscribed.
  var entries: [Entry] {
    subscribers.entries
  }

  /// The subscribers as of now and the table of their call sites, read under the lock, looked at after it: reading a
  /// responder's weak reference retains it, and the release may run its deinit.
  var subscribers: (entries: [Entry], callSites: CallSiteTable) {
    let (list, callSites) = state.withLock {
      ($0.subscribers.changedEntries ?? round.entries, $0.subscribers.callSites)
    }
    return (list.compactMap { $0 }, callSites)
  }

  /// Subscriptions not yet removed, whether or not their responder is alive.
  var occupiedCount: Int {
    state.withLock { $0.subscribers.count }
  }

  /// Sets the function called, with no lock held, after subscriptions were added or removed.
  func setMembershipObserver(_ observer: (@Sendable () -> Void)?) {
    let old = state.withLock { replacing(&$0.subscribers.membershipObserver, with: observer) }
    _ = old  // released here, with no lock held
  }

  // MARK: Lanes, mailboxes and waits

  /// The lane for `context`: one per queue and kind of context, shared by the output's subscribers there.
  ///
  /// The storage keeps its lanes weakly: the entries keep them, and a lane whose entries are gone goes too, and with it
  /// its queue. Reading a weak reference under the lock may release a lane; a lane that nobody else holds has nothing
  /// waiting (a waiting event keeps its lane) and so no user object to release.
  ///
  /// A `.queue(_:)` lane is found by the identity of its `DispatchQueue` object. The main actor's is found by its kind:
  /// on Linux every read of `DispatchQueue.main` makes a new object for the same queue. A subscription with a bounded
  /// buffering policy gets a lane of its own, never shared, which its policy bounds.
  func lane(for context: DeliveryContext, at callSite: CallSite) -> DeliveryLane<Event> {
    let queue: DispatchQueue? =
      switch context.kind {
      case .immediate, .mainActor: nil
      case .queue(let queue): queue
      }
    let isBounded = context.bufferingPolicy.limit != nil
    return state.withLock { state in
      state.lanes.removeAll { $0.lane == nil }
      if !isBounded,
        let lane = state.lanes.lazy.compactMap(\.lane).first(where: { lane in
          lane.bufferingPolicy.limit == nil
            && (queue.map { !lane.runsInlineOnMainQueue && lane.queue === $0 } ?? lane.runsInlineOnMainQueue)
        })
      {
        return lane
      }
      let lane = DeliveryLane<Event>(
        queue: queue ?? .main, runsInlineOnMainQueue: queue == nil, bufferingPolicy: context.bufferingPolicy,
        callSite: callSite)
      state.lanes.append(WeakLane(lane: lane))
      return lane
    }
  }

  /// Keeps an actor responder's mailbox for `waitUntilDelivered()`, and lets go of those gone.
  func track(_ backlog: any DeliveryBacklog) {
    let live = state.withLock { state in
      // Taken out as strong references and released after unlocking: the last release of a mailbox releases its
      // handler, whose captures may have a deinit.
      let live = state.mailboxes.compactMap(\.backlog)
      state.mailboxes = live.map { WeakBacklog(backlog: $0) } + [WeakBacklog(backlog: backlog)]
      return live
    }
    _ = live
  }

  /// A call of `waitUntilDelivered()`: if a thread holds the delivery, marks work queued for it, so that it takes the
  /// lock when its round ends, and has the machine keep `wait` until the holder has delivered what is queued for it
  /// now; returns whether it did.
  func waitForHolder(_ wait: DeliveryWait) -> Bool {
    state.withLock { state in
      state.machine.wait(wait, isDelivering: latch.markWorkQueuedIfHeld()) == .waitForHolder
    }
  }

  /// The task of `wait` was cancelled while the holder kept it.
  func cancelWaitForHolder(_ wait: DeliveryWait) {
    state.withLock { $0.machine.cancel(wait) }
  }

  /// The lanes and mailboxes where delivered events may wait for their subscribers' context.
  var backlogs: [any DeliveryBacklog] {
    state.withLock { state in state.lanes.compactMap(\.lane) + state.mailboxes.compactMap(\.backlog) }
  }

  struct WeakLane: @unchecked Sendable {
    // A weak reference to a `Sendable` lane, read under the output's lock.
    weak var lane: DeliveryLane<Event>?
  }
}

extension DeliveryStorage {
  /// The delivery loop's step for the entry at `offset`: transparent, so never a frame of its own. Returns whether the
  /// round is complete: every lane took the event for all of its entries, and no entry is delivered on this thread.
  @usableFromInline @_transparent
  static func deliver(
    _ event: Event, to entry: Output<Event>.EventEntry, at offset: Int, in round: borrowing RoundList<Event>,
    holder: borrowing DeliveryHolder, deadFound: inout Bool, lanesLeft: inout Int
  ) -> Bool {
    guard !round.isSkipped(entry, holder) else { return false }
    switch entry.route {
    case .responder:
      if !entry.deliver(event) {
        round.markDead(entry, holder)
        deadFound = true
      }
    case .handler:
      unsafeDowncast(entry, to: Output<Event>.HandlerEntry.self).handler(event)
    case .queue, .main:
      guard round.takesInline(event, at: offset, of: entry, lanesLeft: &lanesLeft, holder) else {
        return lanesLeft == 0 && !round.hasImmediateEntries
      }
      if !entry.deliver(event) {
        round.markDead(entry, holder)
        deadFound = true
      }
    }
    return false
  }
}

// Every mutable part is behind the lock, or is the latch's word, or is the round's, reached as ``RoundList`` says.
extension DeliveryStorage: @unchecked Sendable {}

/// An output's subscribers in the order they subscribed. `nil` marks a removed one until compaction.
@usableFromInline
typealias EntryList = ContiguousArray<Entry?>

// MARK: - The round's handle

/// The subscribers a round delivers to, and what only the holder of the delivery reads and writes during a round: a
/// handle over memory of its own, owned by ``DeliveryStorage``, the only type that reaches it.
///
/// Invariants, upheld by ``DeliveryStorage`` and checked by the latch model and by the sanitizer runs of the storage's
/// tests and the reliability suites:
/// - **Who writes.** ``change(_:)`` and ``install(_:)`` run under the output's lock, by a caller that marked the latch
///   ``DeliveryLatch/changingEntries`` or that holds the delivery. Every method that takes a ``DeliveryHolder`` runs on
///   the holder's thread, with or without the lock. So no write overlaps the holder's lock-free reads: the latch's
///   compare-and-swaps order them.
/// - **Borrowed entries.** ``DeliveryStorage/deliver(_:holder:isLockFree:)`` reads each entry of ``entries`` without
///   retaining it. The list keeps
///   every entry alive while the holder reads, because the list changes only as said above.
/// - **A buffer a lane took is never written again.** A lane that queues an event keeps the list's buffer with it, and
///   its block reads that buffer on another thread; ``change(_:)`` then writes a fresh copy. In place, the write
///   would follow the block's last read only through the buffer's reference count: no hand-off ThreadSanitizer can
///   see, and none the language promises.
///
/// Why memory of its own, and not stored properties: the holder reads with no lock while lock holders may access the
/// rest of the output's state, and a class's stored properties would be subject to exclusivity checks at run time on
/// every read of the inlined delivery loop. Why two pieces: while a thread holds the delivery, lock holders still read
/// the list (``List``, to copy it or count it), and the holder writes its own fields (``Contents``); Swift's access of
/// a pointee covers the whole pointee, so the two must not share one.
@usableFromInline
struct RoundList<Event: Sendable>: ~Copyable {
  /// One queue's lane, where its entries are in ``List/entries``, in order, and what it did with the round's event.
  @usableFromInline
  struct LanePlan {
    @usableFromInline let lane: DeliveryLane<Event>
    @usableFromInline var offsets: ContiguousArray<Int32>
    /// The round whose event the lane was last offered (``Contents/round``).
    @usableFromInline var offeredRound: UInt = 0
    /// Whether it left that event to its entries to take inline, on the main queue.
    @usableFromInline var deliversInline = false
  }

  /// The list, which lock holders read while a thread holds the delivery, and the holder reads with no lock.
  @usableFromInline
  struct List {
    /// The list rounds deliver to.
    @usableFromInline var entries: EntryList = []
    /// The elements of ``entries``, which the holder reads: reading the array itself would retain and release its
    /// buffer, two atomic operations a send. Valid as long as ``entries`` is unchanged.
    @usableFromInline var elements = UnsafeBufferPointer<Entry?>(start: nil, count: 0)
  }

  /// What the holder reads and writes during its rounds, and a lock holder only while nobody holds the delivery.
  @usableFromInline
  struct Contents {
    /// A lane keeps the list's buffer with an event it queued: the next change writes a copy.
    @usableFromInline var isShared = false
    /// The list changed since the holder last found the lanes in it (``lanes``).
    @usableFromInline var lanesAreStale = false
    /// Whether a round has lane work to begin with: the lanes are stale, or there are some. One flag, read by every
    /// round, where most outputs have no lane.
    @usableFromInline var roundHasLaneWork = false
    /// The lanes of the list's queued entries, in the order of their first entry.
    @usableFromInline var lanes: ContiguousArray<LanePlan> = []
    /// For each slot of the list, the index of its entry's lane in ``lanes``, or -1.
    @usableFromInline var laneIndexes: ContiguousArray<Int32> = []
    /// Whether the list has an entry delivered on the sending thread.
    @usableFromInline var hasImmediateEntries = false
    /// Numbers the rounds that reach a lane, so that each lane is offered each event once.
    @usableFromInline var round: UInt = 0
    /// Entries a handler cancelled on the delivering thread during this round, skipped for its rest.
    @usableFromInline var skipped: ContiguousArray<ObjectIdentifier> = []
    /// Whether ``skipped`` has any, read for every entry of a round.
    @usableFromInline var hasSkipped = false
    /// Entries whose responder the round found deinitialised, for the end of the round to remove.
    @usableFromInline var dead: EntryList = []
  }

  /// Two allocations, not one: Swift's access of a pointee covers all of it, so a lock holder that reads the list
  /// while the holder writes its own fields would overlap it (ThreadSanitizer reports such an access race).
  @usableFromInline let list: UnsafeMutablePointer<List>
  @usableFromInline let contents: UnsafeMutablePointer<Contents>

  init() {
    list = .allocate(capacity: 1)
    list.initialize(to: List())
    contents = .allocate(capacity: 1)
    contents.initialize(to: Contents())
  }

  deinit {
    list.deinitialize(count: 1)
    list.deallocate()
    contents.deinitialize(count: 1)
    contents.deallocate()
  }

  // MARK: Under the lock: changing the list

  /// The list as of the last change or install.
  var entries: EntryList { list.pointee.entries }

  /// Changes the list: in place, or in a fresh copy when a lane has taken the buffer. Returns the buffer it replaced,
  /// if it made a copy, for the caller to release after unlocking.
  @usableFromInline
  func change<Result>(_ body: (inout EntryList) -> Result) -> (result: Result, retired: EntryList?) {
    var retired: EntryList?
    if contents.pointee.isShared {
      retired = list.pointee.entries
      list.pointee.entries = Self.freshCopy(of: list.pointee.entries)
      contents.pointee.isShared = false
    }
    let result = body(&list.pointee.entries)
    didChange()
    return (result, retired)
  }

  /// Replaces the list with `newList`, a buffer no lane has taken. Returns the list it replaced.
  @usableFromInline
  func install(_ newList: EntryList) -> EntryList {
    let retired = replacing(&list.pointee.entries, with: newList)
    contents.pointee.isShared = false
    didChange()
    return retired
  }

  @usableFromInline
  func didChange() {
    list.pointee.elements = list.pointee.entries.withUnsafeBufferPointer { $0 }
    contents.pointee.lanesAreStale = true
    contents.pointee.roundHasLaneWork = true
    // Found again by the next round that has lanes. Dropped now, so that a lane whose last entry left goes with it: a
    // lane nothing else keeps has nothing waiting, so its deinit frees only its storage, under the lock.
    contents.pointee.lanes.removeAll()
  }

  /// A copy of `list` in a buffer of its own, with room for one more entry.
  static func freshCopy(of list: EntryList) -> EntryList {
    var copy = EntryList()
    copy.reserveCapacity(list.count + 1)
    copy.append(contentsOf: list)
    return copy
  }

  // MARK: The holder's round

  /// Notes that a handler cancelled `entry` on the delivering thread: the round skips it from now on (G4, G5).
  func skip(_ entry: Entry, _: borrowing DeliveryHolder) {
    contents.pointee.skipped.append(ObjectIdentifier(entry))
    contents.pointee.hasSkipped = true
  }

  /// Whether a handler cancelled `entry` on the delivering thread during this round.
  @inlinable @inline(__always)
  func isSkipped(_ entry: Entry, _: borrowing DeliveryHolder) -> Bool {
    contents.pointee.hasSkipped && contents.pointee.skipped.contains(ObjectIdentifier(entry))
  }

  /// Notes that the round found `entry`'s responder deinitialised.
  @usableFromInline
  func markDead(_ entry: Entry, _: borrowing DeliveryHolder) {
    contents.pointee.dead.append(entry)
  }

  /// Ends the round, under the lock: forgets the skipped entries and hands over those found dead.
  @usableFromInline
  func endRound(_: borrowing DeliveryHolder) -> EntryList {
    contents.pointee.skipped.removeAll(keepingCapacity: true)
    contents.pointee.hasSkipped = false
    guard !contents.pointee.dead.isEmpty else { return [] }
    return replacing(&contents.pointee.dead, with: [])
  }

  /// The lane step of a round for the queued entry at `offset`: offers the event to the entry's lane if this is the
  /// first of its entries the round reached, and returns whether the entry takes the event inline. Counts in
  /// `lanesLeft` the lanes the round still has to walk for: not offered yet, or leaving the event to their entries.
  @inlinable @inline(__always)
  func takesInline(
    _ event: Event, at offset: Int, of entry: Output<Event>.EventEntry, lanesLeft: inout Int,
    _ holder: borrowing DeliveryHolder
  ) -> Bool {
    let index = Int(contents.pointee.laneIndexes[offset])
    if contents.pointee.lanes[index].offeredRound != contents.pointee.round {
      offer(event, to: entry, laneAt: index, holder)
      if !contents.pointee.lanes[index].deliversInline {
        lanesLeft &-= 1
      }
    }
    return contents.pointee.lanes[index].deliversInline
  }

  /// Starts a round: finds the lanes again if the list changed, and numbers the round if it has lanes. Returns how many
  /// lanes the round has to offer the event to.
  @inlinable @inline(__always)
  func beginRound(_: borrowing DeliveryHolder) -> Int {
    guard contents.pointee.roundHasLaneWork else { return 0 }
    if contents.pointee.lanesAreStale {
      findLanes()
    }
    let lanes = contents.pointee.lanes.count
    if lanes > 0 {
      contents.pointee.round &+= 1
    }
    return lanes
  }

  /// Whether the list has an entry delivered on the sending thread.
  @inlinable @inline(__always)
  var hasImmediateEntries: Bool { contents.pointee.hasImmediateEntries }

  /// Offers `event` to the lane of `entry`, at `index` of ``Contents/lanes``, with the list and the lane's places in
  /// it, and notes what it did: queued the event for all of its entries, or left it to them to take inline.
  ///
  /// The lane is reached through the entry, whose `lane` is immutable, so it is borrowed: a lane is also referenced
  /// weakly (by the storage), which sends its every retain and release through a side table.
  @inlinable @inline(never)
  func offer(
    _ event: Event, to entry: Output<Event>.EventEntry, laneAt index: Int, _: borrowing DeliveryHolder
  ) {
    // The route says what the entry is.
    let entry = unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self)
    let queued = entry.lane.take(
      event, entries: list.pointee.entries, offsets: contents.pointee.lanes[index].offsets)
    if queued {
      contents.pointee.isShared = true
    }
    contents.pointee.lanes[index].offeredRound = contents.pointee.round
    contents.pointee.lanes[index].deliversInline = !queued
  }

  /// Finds each lane's entries in the list, in order, after the list changed.
  @usableFromInline @inline(never)
  func findLanes() {
    var lanes = ContiguousArray<LanePlan>()
    var laneIndexes = ContiguousArray<Int32>()
    var hasImmediateEntries = false
    for (offset, entry) in list.pointee.entries.enumerated() {
      guard let entry else { continue }
      switch entry.route {
      case .responder, .handler:
        hasImmediateEntries = true
      case .queue, .main:
        // The route says what the entry is.
        let lane = unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self).lane
        if laneIndexes.isEmpty {
          laneIndexes = ContiguousArray(repeating: -1, count: list.pointee.entries.count)
        }
        let index = lanes.firstIndex { $0.lane === lane } ?? lanes.endIndex
        if index == lanes.endIndex {
          lanes.append(LanePlan(lane: lane, offsets: []))
        }
        lanes[index].offsets.append(Int32(truncatingIfNeeded: offset))
        laneIndexes[offset] = Int32(truncatingIfNeeded: index)
      }
    }
    contents.pointee.lanes = lanes
    contents.pointee.laneIndexes = laneIndexes
    contents.pointee.hasImmediateEntries = hasImmediateEntries
    contents.pointee.lanesAreStale = false
    contents.pointee.roundHasLaneWork = !lanes.isEmpty
  }
}

// Read and written as the invariants above say, ordered by the latch and the output's lock.
extension RoundList: @unchecked Sendable {}
