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

}

// Every mutable part is behind the lock, or is the latch's word, or is the round's, reached as ``RoundList`` says.
extension DeliveryStorage: @unchecked Sendable {}
