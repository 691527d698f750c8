// MARK: - Delivery: the steps the holder of the delivery carries out, with no lock held

extension Output {
  /// Hands `event` to every entry of `entries` not skipped. Returns whether a responder was found deinitialised.
  ///
  /// The hot loop of the library, inlined into the caller's module and specialised for its event type. Two choices
  /// keep it near a hand-written loop over weak references (measured in Benchmarks/METHODOLOGY.md):
  /// - `entries` holds every entry for the whole loop, so each entry is borrowed rather than retained and released.
  /// - A token-owned entry delivered immediately is read here and its handler called from here, chosen by its
  ///   `route`, rather than through a virtual call into the entry. A responder entry is generic over its responder's
  ///   type, so it keeps the handler as written, with nothing allocated to erase the type: one virtual call.
  @inlinable @inline(__always)
  static func deliver(
    _ event: Event, to entries: UnsafeBufferPointer<Entry?>, in round: RoundEntries,
    holder: borrowing DeliveryHolder
  ) -> Bool {
    assert(MemoryLayout<Entry?>.stride == MemoryLayout<UnsafeRawPointer?>.stride)
    guard let base = UnsafeRawPointer(entries.baseAddress) else { return false }
    var deadFound = false
    var isStamped = false
    // Each slot is an `Entry?`: one nullable object pointer, read as a raw pointer. An optimised build borrows the
    // entry, which `entries` holds for the whole loop, through a closure the compiler inlines. A debug build, which
    // would show that closure as two unnamed frames between a handler and `send`, retains the entry for the call
    // instead. Either way the entry's step is the same code, transparent, so it is never a frame of its own.
    for offset in 0..<entries.count {
      guard
        let object = base.load(
          fromByteOffset: offset &* MemoryLayout<UnsafeRawPointer?>.stride, as: UnsafeRawPointer?.self)
      else { continue }
      #if DEBUG
        let isComplete = Self.deliver(
          event, toEntry: Unmanaged<EventEntry>.fromOpaque(object).takeUnretainedValue(), in: round, holder: holder,
          deadFound: &deadFound, isStamped: &isStamped)
      #else
        let isComplete = Unmanaged<EventEntry>.fromOpaque(object)._withUnsafeGuaranteedRef { entry in
          Self.deliver(
            event, toEntry: entry, in: round, holder: holder, deadFound: &deadFound, isStamped: &isStamped)
        }
      #endif
      if isComplete { break }
    }
    return deadFound
  }

  /// The delivery loop's step for one entry. Returns whether the round is complete: a lane queued the event for every
  /// entry of the list.
  @usableFromInline @_transparent
  static func deliver(
    _ event: Event, toEntry entry: EventEntry, in round: RoundEntries, holder: borrowing DeliveryHolder,
    deadFound: inout Bool, isStamped: inout Bool
  ) -> Bool {
    guard !entry.isSkipped(holder) else { return false }
    switch entry.route {
    case .responder:
      if !entry.deliver(event) {
        entry.markDead(holder)
        deadFound = true
      }
    case .handler:
      unsafeDowncast(entry, to: HandlerEntry.self).handler(event)
    case .queued:
      if !isStamped {
        round.advanceStamp(holder)
        isStamped = true
      } else if round.isQueuedForEveryQueuedEntry(holder) {
        return false  // one lane queued the event for every queued entry
      }
      if !entry.receive(event, in: round, holder: holder) {
        entry.markDead(holder)
        deadFound = true
      }
      return round.isQueuedForEveryEntry(holder)  // one lane queued the event for every entry
    }
    return false
  }

  /// Carries out `first` and every step after it until the machine has nothing left for this thread. Called by the
  /// thread that holds the delivery (or by a `send` that found another thread holding it, with `.idle`), with no
  /// lock held.
  ///
  /// Each step is dropped when the next one replaces it, after the lock that made the next one is released: a step
  /// may hold the last reference to a removed entry, an event or a list, whose `deinit` is user code.
  @inlinable
  func deliverRounds(_ first: consuming Step, by thread: ThreadIdentity) {
    var step = first
    while true {
      step.change.membershipObserver?()
      if let passedWaits = step.passedWaits {
        DeliveryWait.arrive(passedWaits)
      }
      switch step.action {
      case .idle:
        return
      case .deliver(let event, let entries):
        // The step made this thread the holder, under the lock.
        let holder = heldDelivery(by: thread)
        let deadFound = entries.withUnsafeBufferPointer { Self.deliver(event, to: $0, in: round, holder: holder) }
        step = finishRound(deadFound: deadFound, holder: holder)
      case .replay(let events, let entry):
        let holder = heldDelivery(by: thread)
        // Every entry of an output's list is one of its event entries.
        let deadFound = Self.deliver(events, to: unsafeDowncast(entry, to: EventEntry.self), holder: holder)
        step = state.withLock {
          DeliverySteps.finishReplay(
            to: entry, deadFound: deadFound, holder: holder, machine: &$0.machine, subscribers: &$0.subscribers)
        }
      }
    }
  }

  /// The holder of the delivery, `thread`, which a step of the machine made the holder under the lock. Debug builds
  /// check it against the latch.
  @inlinable @inline(__always)
  func heldDelivery(by thread: ThreadIdentity) -> DeliveryHolder {
    assert(latch.isHeld(by: thread), "EventBus: a step to carry out on a thread that does not hold the delivery")
    return DeliveryHolder(thread: thread)
  }

  /// Reports, as the holder of the delivery, `thread`, the end of a round over the round's entries, and returns the
  /// next step.
  @inlinable
  func finishRound(deadFound: Bool, holder: borrowing DeliveryHolder) -> Step {
    state.withLock {
      DeliverySteps.finishRound(
        deadFound: deadFound, holder: holder, machine: &$0.machine, subscribers: &$0.subscribers)
    }
  }

  /// Hands a replay window to one entry that just subscribed. Returns whether its responder was found deinitialised.
  @usableFromInline
  static func deliver(_ events: ContiguousArray<Event>, to entry: EventEntry, holder: borrowing DeliveryHolder) -> Bool
  {
    for event in events where !entry.isSkipped(holder) && !entry.isDead(holder) {
      if !entry.receive(event) {
        entry.markDead(holder)
        return true
      }
    }
    return false
  }
}
