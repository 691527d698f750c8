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
/// are in `LaneBuffer.swift`.
@usableFromInline
final class DeliveryLane<Event: Sendable> {
  private struct State: ~Copyable {
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
  private let state = LockedState(State())

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

  /// Events waiting for the lane's subscribers, or in the block's hands and not delivered yet.
  var waitingCount: Int {
    state.withLock { $0.events.count + $0.taken }
  }

  /// Events the lane's policy dropped.
  var droppedCount: Int {
    state.withLock { $0.dropped }
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
  private func scheduleBlock() {
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

extension DeliveryLane {
  /// ``take(_:entries:offsets:)`` for a bounded lane: makes room by the policy, counting what it drops. What is dropped
  /// is released here, after the lock.
  ///
  /// Each dropped event is told to the subscriber where it was lost: keeping the newest, the oldest waiting event goes,
  /// and the event after it carries the count; keeping the oldest, the new event goes, and the next event queued
  /// carries the count.
  private func take(_ event: Event, bounding item: consuming LaneBuffer.Item) -> Bool {
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
  private func drainOneAtATime() {
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
    private func warnAboutBacklog() {
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

extension DeliveryLane: DeliveryBacklog {
  func register(_ wait: DeliveryWait) -> Bool {
    state.withLock { state in
      guard state.isScheduled else { return false }
      state.waits = state.waits ?? DeliveryWaitList()
      // A bounded lane's block takes one event at a time; an unbounded one's, the whole burst.
      let items = bufferingPolicy.limit == nil ? (state.events.isEmpty ? 0 : 1) : state.events.count
      state.waits?.add(wait, behind: items)
      return true
    }
  }

  func forget(_ wait: DeliveryWait) {
    state.withLock { $0.waits?.remove(wait) }
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

/// The key of the value set on the main queue, which ``isOnMainQueue()`` reads.
private let mainQueueKey = DispatchSpecificKey<Bool>()

/// Set once, the first time anyone asks. `setSpecific` is thread-safe.
private let isMainQueueMarked: Bool = {
  DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
  return true
}()

/// Whether the calling code runs on the main queue (a block of the main queue, a main-actor job, or the process's
/// first thread before it gave the main queue away), or on a queue that targets it: what `.main` delivery asks before
/// it runs a `@MainActor` handler inline.
///
/// `Thread.isMainThread` is the wrong question: under Swift concurrency on Linux, and inside Swift Testing, the main
/// actor's jobs run on the main queue but on another thread once the process's first thread has given the main queue
/// away (`dispatchMain()`, the first suspension of an async `main`). A queue-specific value set on the main queue is
/// seen by every block the main queue runs, on whatever thread, including the main actor's jobs, and by the process's
/// first thread, which libdispatch counts as the main queue until it gives it away. On Apple platforms the main queue
/// always runs on the main thread, so the answer is the same as `Thread.isMainThread` there.
func isOnMainQueue() -> Bool {
  guard isMainQueueMarked else { return false }
  return DispatchQueue.getSpecific(key: mainQueueKey) == true
}
