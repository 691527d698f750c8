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
  }

  let queue: DispatchQueue
  let runsInlineOnMainQueue: Bool
  private let state = LockedState(State())

  /// The block the lane puts on its queue, made once: a closure made per block would be an allocation per block.
  ///
  /// It holds the lane weakly. The lane lives while a block has events to deliver: each waiting event keeps its list,
  /// whose entries keep their lane.
  private var drainBlock: @Sendable @convention(block) () -> Void = {}

  init(queue: DispatchQueue, runsInlineOnMainQueue: Bool) {
    self.queue = queue
    self.runsInlineOnMainQueue = runsInlineOnMainQueue
    LiveObjects.created("DeliveryLane", for: Event.self, object: ObjectIdentifier(self))
    drainBlock = { [weak self] in
      guard let self else { return }
      #if DEBUG
        if self.runsInlineOnMainQueue { MainQueueWatchdog.started() }
      #endif
      self.drain()
    }
  }

  deinit {
    // Nothing waits here (a waiting event keeps the lane), so this frees only the storage, taken out of the state
    // first: freeing runs no user code, but nothing is freed under a lock.
    var events = LaneBuffer()
    var spare = LaneBuffer()
    var held = HeldResponders()
    state.withLock { state in
      swap(&state.events, &events)
      swap(&state.spare, &spare)
      swap(&state.held, &held)
    }
    events.free(of: Event.self)
    spare.free(of: Event.self)
    held.free()
    LiveObjects.destroyed("DeliveryLane", for: Event.self, object: ObjectIdentifier(self))
  }

  /// `main`, or `queue` and its label, for `debugDescription`.
  var contextDescription: String {
    runsInlineOnMainQueue ? "main" : "queue \(queue.label)"
  }

  /// Queues `event` for the lane's entries at `offsets` of `entries`, and schedules a block if none is. Returns
  /// `false`, queueing nothing, when the caller delivers at once instead: on the main queue, for a lane that runs
  /// inline there, with nothing waiting. Called by the thread that holds the output's delivery, once per round.
  @usableFromInline
  func take(_ event: Event, entries: EntryList, offsets: ContiguousArray<Int32>) -> Bool {
    // Moved into the buffer, not copied: two retains and two releases less for each event. Left here, and released
    // after the lock, when the event is delivered inline instead.
    var item = Optional(LaneBuffer.Item(entries: entries, offsets: offsets))
    let schedule = state.withLock { state -> Bool? in
      if state.isScheduled {
        state.events.append(event, item.take().unsafelyUnwrapped)
        return false
      }
      // Asked only when nothing waits, once a burst, not for each event; libdispatch runs no code of the user's.
      if runsInlineOnMainQueue && isOnMainQueue() { return nil }
      state.events.append(event, item.take().unsafelyUnwrapped)
      state.isScheduled = true
      return true
    }
    guard let schedule else { return false }
    if schedule {
      #if DEBUG
        // A tool that never serves the main queue gets a warning instead of silence. Before the block is queued,
        // which may start at once.
        if runsInlineOnMainQueue { MainQueueWatchdog.scheduled() }
      #endif
      queue.async(execute: drainBlock)
    }
    return true
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

extension DeliveryLane: DeliveryBacklog {
  func register(_ wait: DeliveryWait) -> Bool {
    state.withLock { state in
      guard state.isScheduled else { return false }
      state.waits = state.waits ?? DeliveryWaitList()
      state.waits?.add(wait, behind: state.events.isEmpty ? 0 : 1)
      return true
    }
  }

  func forget(_ wait: DeliveryWait) {
    state.withLock { $0.waits?.remove(wait) }
  }
}

// The lane's state is behind its lock; the queue, the flag and the block are set in `init` and never changed.
extension DeliveryLane: @unchecked Sendable {}

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
