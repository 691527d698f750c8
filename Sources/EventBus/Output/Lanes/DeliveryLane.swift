import Dispatch

/// The subscribers of one output that are delivered on one queue (`.main`, or `.queue(_:)`), and the events waiting
/// for them: one block on the queue per burst, for all of them (G11, G13).
///
/// The thread that holds the output's delivery hands the lane each event once per round, not once per subscriber,
/// with the round's list and where the lane's entries are in it (``take(_:entries:offsets:)``): an immutable copy,
/// which the lane keeps with the event, and to whose entries the block delivers the event, in order. That keeps every
/// guarantee of immediate delivery: a subscriber added after the event was sent is not in its list (G5); each event
/// reaches each subscriber in order, one block at a time even on a concurrent queue (G1); an entry cancelled before
/// the block reaches it is skipped, checked just before its handler runs (G4). A sender never waits for the queue.
///
/// On the main queue, with nothing waiting, the lane takes nothing and the round delivers at once instead (`.main`
/// runs inline on the main actor).
///
/// A subscription with a bounded ``DeliveryContext/BufferingPolicy`` has a lane of its own, whose block takes its
/// events one at a time, so that the policy counts every event that waits: it drops the oldest waiting event to make
/// room, or the new one, counts what it dropped, and tells the subscriber before its next event. Unbounded
/// subscriptions share their queue's lane, and its block takes each burst whole.
///
/// The lane decides under its own lock and delivers with none held; its raw memory and the walks over borrowed entries
/// are in `LaneBuffer.swift` and `HeldResponders.swift`; a bounded lane's steps in `DeliveryLane+Bounded.swift`.
@usableFromInline
final class DeliveryLane<Event: Sendable> {
  struct State: ~Copyable {
    var events = LaneBuffer()
    /// The buffer the last block emptied, kept with its capacity for the next block: with `events`, the two take
    /// turns, so a steady rhythm of sends allocates nothing.
    var spare = LaneBuffer()
    /// A block is on the queue, or running: later events wait for it.
    var isScheduled = false
    /// The storage for the responders a block holds while it delivers a run of events, between blocks: taken by a
    /// block when it starts, given back empty, holding nothing, when it stops. Behind the lock, because the next block
    /// may start on another thread as soon as this one has said it stops.
    var held = HeldResponders()
    /// Calls of `Output.waitUntilDelivered()` waiting for the block: behind the burst it took, if any, and the next;
    /// `nil` while there are none, the common case, which then costs the block nothing.
    var waits: DeliveryWaitList?
    /// Events the block took and has not delivered yet: the burst in hand (one event, for a bounded lane).
    var taken = 0
    /// Events the policy dropped, in all.
    var dropped = 0
    /// Events the policy dropped after the last one waiting (keeping the oldest): told before the next one queued.
    var droppedAtEnd = 0
    /// A bounded lane's buffers for the event its block has in hand and the one its policy evicts, kept with their
    /// capacity between uses, so that neither allocates per event.
    var inHand = LaneBuffer()
    var evicted = LaneBuffer()
    #if DEBUG
      /// The warning about an unbounded lane's backlog was written.
      var hasWarned = false
    #endif
  }

  let queue: DispatchQueue
  let runsInlineOnMainQueue: Bool
  /// How many events may wait; a bounded lane has one subscription.
  let bufferingPolicy: DeliveryContext.BufferingPolicy
  /// Where the lane's first subscription was made, for the debug warning about its backlog.
  let callSite: CallSite
  let state = LockedState(State())

  /// How many events may wait in an unbounded lane before a debug build warns, once.
  static var backlogWarningThreshold: Int { 100_000 }

  /// The block the lane puts on its queue, made once: a closure made per block would be an allocation per block.
  ///
  /// It holds the lane weakly. The lane lives while a block has events to deliver: each waiting event keeps its list,
  /// whose entries keep their lane.
  private var drainBlock: @Sendable @convention(block) () -> Void = {}

  init(
    queue: DispatchQueue, runsInlineOnMainQueue: Bool, bufferingPolicy: DeliveryContext.BufferingPolicy = .unbounded,
    callSite: CallSite = CallSite()
  ) {
    self.queue = queue
    self.runsInlineOnMainQueue = runsInlineOnMainQueue
    self.bufferingPolicy = bufferingPolicy
    self.callSite = callSite
    LiveObjects.created("DeliveryLane", for: Event.self, object: ObjectIdentifier(self))
    drainBlock = { [weak self] in
      guard let self else { return }
      #if DEBUG
        if self.runsInlineOnMainQueue { MainQueueWatchdog.started() }
      #endif
      if self.bufferingPolicy.limit == nil {
        self.drain()
      } else {
        self.drainOneAtATime()
      }
    }
  }

  deinit {
    // Nothing waits here (a waiting event keeps the lane), so this frees only the storage, taken out of the state
    // first: freeing runs no user code, but nothing is freed under a lock.
    var events = LaneBuffer()
    var spare = LaneBuffer()
    var inHand = LaneBuffer()
    var evicted = LaneBuffer()
    var held = HeldResponders()
    state.withLock { state in
      swap(&state.events, &events)
      swap(&state.spare, &spare)
      swap(&state.inHand, &inHand)
      swap(&state.evicted, &evicted)
      swap(&state.held, &held)
    }
    events.free(of: Event.self)
    spare.free(of: Event.self)
    inHand.free(of: Event.self)
    evicted.free(of: Event.self)
    held.free()
    LiveObjects.destroyed("DeliveryLane", for: Event.self, object: ObjectIdentifier(self))
  }

  /// `main`, or `queue` and its label, and a bounded policy, for `debugDescription`.
  var contextDescription: String {
    let context = runsInlineOnMainQueue ? "main" : "queue \(queue.label)"
    return bufferingPolicy.limit == nil ? context : "\(context), \(bufferingPolicy)"
  }

  /// Queues `event` for the lane's entries at `offsets` of `entries`, and schedules a block if none is. Returns
  /// `false`, queueing nothing, when the caller delivers at once instead: on the main queue, for a lane that runs
  /// inline there, with nothing waiting. Called by the thread that holds the output's delivery, once per round.
  @usableFromInline
  func take(_ event: Event, entries: EntryList, offsets: ContiguousArray<Int32>) -> Bool {
    guard bufferingPolicy.limit == nil else {
      return take(event, bounding: LaneBuffer.Item(entries: entries, offsets: offsets))
    }
    // Moved into the buffer, not copied: two retains and two releases less for each event. Left here, and released
    // after the lock, when the event is delivered inline instead.
    var item = Optional(LaneBuffer.Item(entries: entries, offsets: offsets))
    let taking = state.withLock { state -> LaneTaking in
      if state.isScheduled {
        state.events.append(event, item.take().unsafelyUnwrapped)
        #if DEBUG
          if !state.hasWarned, state.events.count + state.taken > Self.backlogWarningThreshold {
            state.hasWarned = true
            return .queuedPastWarning
          }
        #endif
        return .queued
      }
      // Asked only when nothing waits, once a burst, not for each event; libdispatch runs no code of the user's.
      if runsInlineOnMainQueue && isOnMainQueue() { return .inline }
      state.events.append(event, item.take().unsafelyUnwrapped)
      state.isScheduled = true
      return .scheduled
    }
    switch taking {
    case .inline:
      return false
    case .queued:
      return true
    case .queuedPastWarning:
      #if DEBUG
        warnAboutBacklog()
      #endif
      return true
    case .scheduled:
      scheduleBlock()
      return true
    }
  }

  /// Puts the lane's block on its queue.
  func scheduleBlock() {
    #if DEBUG
      // A tool that never serves the main queue gets a warning instead of silence. Before the block is queued, which
      // may start at once.
      if runsInlineOnMainQueue { MainQueueWatchdog.scheduled() }
    #endif
    queue.async(execute: drainBlock)
  }

  /// The block: delivers what waits, in order, until nothing does. Swaps the waiting events for the empty spare
  /// buffer each time, so the two buffers take turns and a steady rhythm of sends allocates nothing.
  ///
  /// Events that wait together for the same entries are delivered as a run, for which the lane holds the entries'
  /// responders (``HeldResponders``); an event that waits alone is delivered with a weak load per responder, which
  /// costs it less than a run's hold and release.
  private func drain() {
    var waiting = LaneBuffer()
    var held = HeldResponders()
    state.withLock { state in
      swap(&state.spare, &waiting)
      swap(&state.held, &held)
    }
    while true {
      let (hasEvents, passedWaits) = state.withLock { state in
        swap(&state.events, &waiting)
        state.taken = waiting.count
        let passedWaits = state.waits?.advance(takingAnother: !waiting.isEmpty)
        if state.waits?.isEmpty == true {
          state.waits = nil
        }
        guard waiting.isEmpty else { return (true, passedWaits) }
        state.isScheduled = false
        swap(&state.spare, &waiting)
        // Ended before the lock was taken: it holds nothing, and replacing it releases nothing.
        swap(&state.held, &held)
        return (false, passedWaits)
      }
      if let passedWaits {
        DeliveryWait.arrive(passedWaits)
      }
      guard hasEvents else { return }
      while !waiting.isEmpty {
        let othersWait = waiting.count > 1
        waiting.removeFirst(of: Event.self) { event, item in
          if !held.holds(item) {
            held.end()
            guard othersWait else {
              return LaneBuffer.deliver(&event, to: item.offsets, of: item.entries)
            }
            held.hold(item, of: Event.self)
          }
          held.deliver(&event)
        }
      }
      // Before the lock is taken again: a release may run a responder's deinit.
      held.end()
    }
  }
}

// The lane's state is behind its lock; the queue, the flag and the block are set in `init` and never changed.
extension DeliveryLane: @unchecked Sendable {}

/// What `DeliveryLane.take(_:entries:offsets:)` decided under the lock. Not nested in the lane: a type nested in a
/// generic class is generic too, and the lane's unspecialised code would look its metadata up for every event.
private enum LaneTaking {
  /// Nothing waits, on the main queue: the round delivers inline.
  case inline
  /// Queued behind a block that is scheduled or running.
  case queued
  /// Queued, and the backlog just passed the debug warning's threshold.
  case queuedPastWarning
  /// Queued, and a block must be scheduled.
  case scheduled
}
