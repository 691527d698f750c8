import Dispatch

/// The subscribers of one output that are delivered on one queue (`.main`, or `.queue(_:)`), and the events waiting
/// for them: one block on the queue per burst, for all of them (G11, G13).
///
/// The thread that holds the output's delivery hands the lane each event once per round, not once per subscriber,
/// with the lane's entries of the round's subscriber list: an immutable copy, which the lane keeps with the event, and
/// to whose entries the block delivers the event, in order. That keeps every guarantee of immediate
/// delivery: a subscriber added after the event was sent is not in its list (G5); each event reaches each subscriber
/// in order, one block at a time even on a concurrent queue (G1); an entry cancelled before the block reaches it is
/// skipped, checked just before its handler runs (G4). A sender never waits for the queue.
///
/// On the main queue, with nothing waiting, the lane delivers at once instead (`.main` runs inline on the main actor).
final class DeliveryLane<Event: Sendable> {
  /// Not generic, like everything the lane's code names for each event (``LaneItems``).
  private struct State: ~Copyable {
    var items = LaneItems()
    /// The queue the last block emptied, kept with its capacity for the next block: with `items`, the two take
    /// turns, so a steady rhythm of sends allocates nothing.
    var spare = LaneItems()
    /// A block is on the queue, or running: later items wait for it.
    var isScheduled = false
    /// The storage for the responders a block holds while it delivers a run of events, between blocks: taken by a
    /// block when it starts, given back empty, holding nothing, when it stops. Behind the lock, because the next block
    /// may start on another thread as soon as this one has said it stops.
    var held = HeldResponders()
    /// Calls of `Output.waitUntilDelivered()` waiting for the block: behind the burst it took, if any, and the next.
    var waits = DeliveryWaitList()
  }

  let queue: DispatchQueue
  let runsInlineOnMainQueue: Bool
  private let state = LockedState(State())
  /// The round (``RoundEntries/stamp``) the lane last saw, and whether it delivers that round's event inline. Read and
  /// written only by the thread that holds the output's delivery, like an entry's round flags.
  @exclusivity(unchecked) private var round: UInt = 0
  @exclusivity(unchecked) private var deliversInline = false
  /// Where this lane's entries are in the round's list, in order, as of the list's ``RoundEntries/version``
  /// `offsetsVersion`: found again only when the list has changed. Offsets, not entries, so that the lane keeps no
  /// entry alive once it is removed. Read and written only by the thread that holds the output's delivery.
  @exclusivity(unchecked) private var offsets = ContiguousArray<Int32>()
  @exclusivity(unchecked) private var offsetsVersion = UInt.max
  /// Whether ``offsets`` hold every entry of the list delivered through a lane: then, once the lane has queued a
  /// round's event, the delivery loop can skip the rest of them (``RoundEntries/isQueuedForEveryQueuedEntry(_:)``).
  @exclusivity(unchecked) private var coversEveryQueuedEntry = false
  /// Whether ``offsets`` hold every entry of the list: then, once the lane has queued a round's event, the delivery
  /// loop stops (``RoundEntries/isQueuedForEveryEntry(_:)``).
  @exclusivity(unchecked) private var coversEveryEntry = false

  /// The block the lane puts on its queue, made once: a closure made per block would be an allocation per block.
  ///
  /// It does not keep the lane; `enqueue` retains the lane for it instead, once per block, and the block releases it
  /// when it is done, which keeps a lane with events waiting alive, as a capturing closure would.
  private var drainBlock: @Sendable @convention(block) () -> Void = {}

  init(queue: DispatchQueue, runsInlineOnMainQueue: Bool) {
    self.queue = queue
    self.runsInlineOnMainQueue = runsInlineOnMainQueue
    LiveObjects.created("DeliveryLane", for: Event.self, object: ObjectIdentifier(self))
    drainBlock = { [unowned(unsafe) self] in
      #if DEBUG
        if self.runsInlineOnMainQueue { MainQueueWatchdog.started() }
      #endif
      self.drain()
      Unmanaged.passUnretained(self).release()
    }
  }

  deinit {
    // Nothing waits here (a waiting event keeps a block, which keeps the lane), so this frees only the storage, taken
    // out of the state first: freeing runs no user code, but nothing is freed under a lock.
    var items = LaneItems()
    var spare = LaneItems()
    var held = HeldResponders()
    state.withLock { state in
      swap(&state.items, &items)
      swap(&state.spare, &spare)
      swap(&state.held, &held)
    }
    items.free(of: Event.self)
    spare.free(of: Event.self)
    held.free()
    LiveObjects.destroyed("DeliveryLane", for: Event.self, object: ObjectIdentifier(self))
  }

  /// `main`, or `queue` and its label, for `debugDescription`.
  var contextDescription: String {
    runsInlineOnMainQueue ? "main" : "queue \(queue.label)"
  }

  /// Hands `entry`, one of this lane's, the event of the current round over `round`'s list: the first entry of the
  /// lane in the round queues the event for them all, or, on the main queue with nothing waiting, each entry takes it
  /// at once. Returns `false` when the entry's target is gone for good. On the thread that holds the delivery.
  func receive(
    _ event: Event, for entry: Output<Event>.EventEntry, in round: RoundEntries, holder: borrowing DeliveryHolder
  ) -> Bool {
    if self.round != round.stamp(holder) {
      begin(round, with: event, holder: holder)
    }
    return deliversInline ? entry.deliver(event) : true
  }

  /// Queues the event of a round new to the lane for all of its entries, or decides to deliver it inline.
  @inline(never)
  private func begin(_ round: RoundEntries, with event: Event, holder: borrowing DeliveryHolder) {
    self.round = round.stamp(holder)
    if offsetsVersion != round.version {
      offsetsVersion = round.version
      (offsets, coversEveryQueuedEntry, coversEveryEntry) = Self.offsets(of: self, in: round.list.pointee)
    }
    deliversInline = !enqueue(event, LaneItems.Item(entries: round.list.pointee, offsets: offsets))
    if !deliversInline {
      // The block reads the buffer on the lane's queue: from now on, a change of the list writes a copy.
      round.isListShared = true
    }
    if !deliversInline && coversEveryQueuedEntry {
      round.noteQueued(forEveryEntry: coversEveryEntry, holder)
    }
  }

  /// Hands one entry an event of its replay window, on its own. Returns `false` when the entry's target is gone.
  func receive(_ event: Event, alone entry: Output<Event>.EventEntry) -> Bool {
    enqueue(event, LaneItems.Item(entries: [entry], offsets: [0])) ? true : entry.deliver(event)
  }

  /// Queues `event` with `item` and schedules a block if none is; returns `false`, queueing nothing, when the caller
  /// may deliver at once instead: on the main queue, for a lane that runs inline there, with nothing waiting.
  private func enqueue(_ event: Event, _ item: consuming LaneItems.Item) -> Bool {
    // Moved into the queue, not copied: two retains and two releases less for each event. Left here, and released
    // after the lock, when the event is delivered inline instead.
    var item = Optional(item)
    let schedule = state.withLock { state -> Bool? in
      if state.isScheduled {
        state.items.append(event, item.take().unsafelyUnwrapped)
        return false
      }
      // Asked only when nothing waits, once a burst, not for each event; libdispatch runs no code of the user's.
      if runsInlineOnMainQueue && MainQueue.isCurrent { return nil }
      state.items.append(event, item.take().unsafelyUnwrapped)
      state.isScheduled = true
      return true
    }
    guard let schedule else { return false }
    if schedule {
      _ = Unmanaged.passUnretained(self).retain()  // released by the block (`drainBlock`)
      #if DEBUG
        // A tool that never serves the main queue gets a warning instead of silence. Before the block is queued,
        // which may start at once.
        if runsInlineOnMainQueue { MainQueueWatchdog.scheduled() }
      #endif
      queue.async(execute: drainBlock)
    }
    return true
  }

  /// The block: delivers what waits, in order, until nothing does. Swaps the waiting items for the empty spare
  /// buffer each time, so the two buffers take turns and a steady rhythm of sends allocates nothing.
  ///
  /// Events that wait together for the same entries are delivered as a run, for which the lane holds the entries'
  /// responders (``HeldResponders``); an event that waits alone is delivered with a weak load per responder, which
  /// costs it less than a run's hold and release.
  private func drain() {
    var waiting = LaneItems()
    var held = HeldResponders()
    state.withLock { state in
      swap(&state.spare, &waiting)
      swap(&state.held, &held)
    }
    while true {
      let (hasItems, passedWaits) = state.withLock { state in
        swap(&state.items, &waiting)
        let passedWaits = state.waits.isEmpty ? nil : state.waits.advance(takingAnother: !waiting.isEmpty)
        guard waiting.isEmpty else { return (true, passedWaits) }
        state.isScheduled = false
        swap(&state.spare, &waiting)
        // Ended before the lock was taken: it holds nothing, and replacing it releases nothing.
        swap(&state.held, &held)
        return (false, passedWaits)
      }
      DeliveryWait.arrive(passedWaits)
      guard hasItems else { return }
      while !waiting.isEmpty {
        let othersWait = waiting.count > 1
        waiting.removeFirst(of: Event.self) { event, item in
          if !held.holds(item) {
            held.end()
            guard othersWait else {
              return Self.deliver(UnsafeMutableRawPointer(event), to: item.offsets, of: item.entries)
            }
            held.hold(item)
          }
          held.deliver(UnsafeMutableRawPointer(event))
        }
      }
      // Before the lock is taken again: a release may run a responder's deinit.
      held.end()
    }
  }

  /// Hands the event at `event` to the entries at `offsets` of `entries`, in order. Not generic, so that the loop
  /// needs no generic metadata at run time: the lane's code runs unspecialised.
  private static func deliver(
    _ event: UnsafeMutableRawPointer, to offsets: ContiguousArray<Int32>, of entries: EntryList
  ) {
    // The item keeps its entries for the whole loop, so each is borrowed, not retained and released.
    entries.withUnsafeBufferPointer { entries in
      guard let base = UnsafeRawPointer(entries.baseAddress) else { return }
      for offset in offsets {
        guard
          let object = base.load(
            fromByteOffset: Int(offset) &* MemoryLayout<UnsafeRawPointer?>.stride, as: UnsafeRawPointer?.self)
        else { continue }
        Unmanaged<Entry>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.receiveQueued(event) }
      }
    }
  }
}

extension DeliveryLane: DeliveryBacklog {
  func register(_ wait: DeliveryWait) -> Bool {
    state.withLock { state in
      guard state.isScheduled else { return false }
      state.waits.add(wait, behind: state.items.isEmpty ? 0 : 1)
      return true
    }
  }

  func forget(_ wait: DeliveryWait) {
    state.withLock { $0.waits.remove(wait) }
  }
}

// The lane's queue state is behind its lock; `round` and `deliversInline` belong to the thread that holds the
// output's delivery, handed from one holder to the next through the latch.
extension DeliveryLane: @unchecked Sendable {}
