// The send path of the storage: claiming the delivery, the round's loop over its entries, and the end of each round.
// The loop borrows each entry from the round's list without retaining it (see `RoundList`'s invariants).

extension DeliveryStorage {

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
