extension DeliveryLane {
  /// ``take(_:entries:offsets:)`` for a bounded lane: makes room by the policy, counting what it drops. What is dropped
  /// is released here, after the lock.
  ///
  /// Each dropped event is told to the subscriber where it was lost: keeping the newest, the oldest waiting event goes,
  /// and the event after it carries the count; keeping the oldest, the new event goes, and the next event queued
  /// carries the count.
  func take(_ event: Event, bounding item: consuming LaneBuffer.Item) -> Bool {
    let limit = bufferingPolicy.limit ?? .max
    var item = Optional(item)
    // The event the policy evicts moves here, out of the lock, to be released after it; the buffer is the lane's
    // spare, which keeps its capacity.
    var evicted = LaneBuffer()
    let schedule = state.withLock { state -> Bool? in
      if state.isScheduled {
        var carried = 0
        if state.events.count >= limit {
          state.dropped += 1
          guard case .bufferingNewest = bufferingPolicy else {
            state.droppedAtEnd += 1
            return false  // the new event goes, with its item
          }
          swap(&state.evicted, &evicted)
          carried = 1 &+ state.events.moveFirst(to: &evicted, of: Event.self)
          if !state.events.isEmpty {
            state.events.addMissed(carried)
            carried = 0
          }
        }
        item?.missedBefore = replacing(&state.droppedAtEnd, with: 0) &+ carried
        state.events.append(event, item.take().unsafelyUnwrapped)
        return false
      }
      // Inline only with no loss to tell first: the block tells it, before the event.
      if runsInlineOnMainQueue && state.droppedAtEnd == 0 && isOnMainQueue() { return nil }
      item?.missedBefore = replacing(&state.droppedAtEnd, with: 0)
      state.events.append(event, item.take().unsafelyUnwrapped)
      state.isScheduled = true
      return true
    }
    if !evicted.isEmpty {
      // Released here, with no lock held: an event's deinit is user code. Then the spare goes back.
      evicted.removeFirst(of: Event.self) { _, _ in }
      state.withLock { swap(&$0.evicted, &evicted) }
    }
    guard let schedule else { return false }
    if schedule {
      scheduleBlock()
    }
    // A dropped new event is taken all the same: the round must not deliver it inline.
    return true
  }

  /// The block of a bounded lane: delivers what waits one event at a time, so that every event not yet delivered is
  /// one the policy counts, and tells the subscriber how many it missed before the next event it receives.
  ///
  /// A block delivers at most as many events as the policy keeps, then, if more wait, puts itself back on the queue
  /// and returns: a sender that never pauses must not keep one subscriber's block on the queue for ever, ahead of the
  /// other subscribers' blocks.
  func drainOneAtATime() {
    var inHand = LaneBuffer()
    state.withLock { swap(&$0.inHand, &inHand) }
    var budget = bufferingPolicy.limit ?? .max
    while true {
      let (hasEvent, reschedules, passedWaits) = state.withLock { state -> (Bool, Bool, [DeliveryWait]?) in
        state.taken = 0
        if budget == 0 && !state.events.isEmpty {
          // The next block goes on: it counts the event this one finished last for the waits, as a block does the
          // item in hand when it starts.
          swap(&state.inHand, &inHand)
          return (false, true, nil)
        }
        let passedWaits = state.waits?.advance(takingAnother: !state.events.isEmpty)
        if state.waits?.isEmpty == true {
          state.waits = nil
        }
        guard !state.events.isEmpty, budget > 0 else {
          // Ended before the lock was taken: it holds nothing, and replacing it releases nothing.
          swap(&state.inHand, &inHand)
          state.isScheduled = !state.events.isEmpty
          return (false, state.isScheduled, passedWaits)
        }
        state.taken = 1
        state.events.moveFirst(to: &inHand, of: Event.self)
        return (true, false, passedWaits)
      }
      if let passedWaits {
        DeliveryWait.arrive(passedWaits)
      }
      guard hasEvent else {
        if reschedules {
          scheduleBlock()
        }
        return
      }
      budget -= 1
      inHand.removeFirst(of: Event.self) { event, item in
        if item.missedBefore > 0 {
          LaneBuffer.reportLag(item.missedBefore, to: item.offsets, of: item.entries, eventType: Event.self)
        }
        LaneBuffer.deliver(&event, to: item.offsets, of: item.entries)
      }
    }
  }

  #if DEBUG
    /// Writes, once per lane, that more than ``backlogWarningThreshold`` events wait for an unbounded lane.
    func warnAboutBacklog() {
      let context = runsInlineOnMainQueue ? ".main" : ".queue(\(queue.label))"
      let suggestion =
        runsInlineOnMainQueue
        ? "on: .main(bufferingPolicy: .latest)" : "on: .queue(queue, bufferingPolicy: .bufferingNewest(1_000))"
      DebugWarnings.emit(
        "EventBus warning: more than \(Self.backlogWarningThreshold) events wait for the subscription made at \(callSite)"
          + " on \(context): its handler is slower than its sender, and the queue grows without bound. Give it a "
          + "buffering policy that keeps what it needs, for example `\(suggestion)`, which drops what it cannot keep, "
          + "counts it (droppedCount) and tells it (onLag). (Debug builds only; once per queue.)",
        about: callSite)
    }
  #endif
}
