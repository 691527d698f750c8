import CEventBusAtomics
import Dispatch

/// The subscribers of one output that are delivered on one queue (`.main`, or `.queue(_:)`), and the events waiting
/// for them: one block on the queue per burst, for all of them (G11, G13).
///
/// The thread that holds the output's delivery hands the lane each event once per round, with the round's subscriber
/// list, not once per subscriber: the list is an immutable copy, so the lane keeps it with the event, and the block
/// delivers the event to the list's entries of this lane, in order. That keeps every guarantee of immediate
/// delivery: a subscriber added after the event was sent is not in its list (G5); each event reaches each subscriber
/// in order, one block at a time even on a concurrent queue (G1); an entry cancelled before the block reaches it is
/// skipped, checked just before its handler runs (G4). A sender never waits for the queue.
///
/// On the main queue, with nothing waiting, the lane delivers at once instead (`.main` runs inline on the main actor).
final class DeliveryLane<Event: Sendable> {
  private struct Item {
    var event: Event
    var entries: EntryList
  }

  private struct State {
    var items = RingBuffer<Item>()
    /// A block is on the queue, or running: later items wait for it.
    var isScheduled = false
  }

  let queue: DispatchQueue
  let runsInlineOnMainQueue: Bool
  private let state = LockedState(State())
  /// The round (``RoundEntries/stamp``) the lane last saw, and whether it delivers that round's event inline. Read and
  /// written only by the thread that holds the output's delivery, like an entry's round flags.
  @exclusivity(unchecked) private var round: UInt = 0
  @exclusivity(unchecked) private var deliversInline = false

  init(queue: DispatchQueue, runsInlineOnMainQueue: Bool) {
    self.queue = queue
    self.runsInlineOnMainQueue = runsInlineOnMainQueue
    LiveObjects.created("DeliveryLane", for: Event.self)
  }

  deinit {
    LiveObjects.destroyed("DeliveryLane", for: Event.self)
  }

  /// `main`, or `queue` and its label, for `debugDescription`.
  var contextDescription: String {
    queue === DispatchQueue.main ? "main" : "queue \(queue.label)"
  }

  /// Hands `entry`, one of this lane's, the event of the current round over `round`'s list: the first entry of the
  /// lane in the round queues the event for them all, or, on the main queue with nothing waiting, each entry takes it
  /// at once. Returns `false` when the entry's target is gone for good. On the thread that holds the delivery.
  func receive(_ event: Event, for entry: Output<Event>.EventEntry, in round: RoundEntries) -> Bool {
    if self.round != round.stamp {
      self.round = round.stamp
      deliversInline = !enqueue(Item(event: event, entries: round.list.pointee), inlineIfIdle: true)
    }
    return deliversInline ? entry.deliver(event) : true
  }

  /// Hands one entry an event of its replay window, on its own. Returns `false` when the entry's target is gone.
  func receive(_ event: Event, alone entry: Output<Event>.EventEntry) -> Bool {
    enqueue(Item(event: event, entries: [entry]), inlineIfIdle: true) ? true : entry.deliver(event)
  }

  /// Queues `item` and schedules a block if none is; returns `false`, queueing nothing, when the caller may deliver
  /// at once instead: on the main queue, for a lane that runs inline there, with nothing waiting.
  private func enqueue(_ item: Item, inlineIfIdle: Bool) -> Bool {
    let inlineAllowed = inlineIfIdle && runsInlineOnMainQueue && MainQueue.isCurrent
    let schedule = state.withLock { state -> Bool? in
      if inlineAllowed, !state.isScheduled { return nil }
      state.items.append(item)
      guard !state.isScheduled else { return false }
      state.isScheduled = true
      return true
    }
    guard let schedule else { return false }
    if schedule {
      queue.async { self.drain() }
    }
    return true
  }

  /// The block: delivers what waits, in order, until nothing does. Swaps the waiting items for an empty buffer each
  /// time, so the two buffers take turns and a steady rhythm of sends allocates nothing.
  private func drain() {
    var batch = RingBuffer<Item>()
    while true {
      let hasItems = state.withLock { state in
        swap(&state.items, &batch)
        if batch.isEmpty { state.isScheduled = false }
        return !batch.isEmpty
      }
      guard hasItems else { return }
      while let item = batch.popFirst() {
        for case let entry? in item.entries {
          unsafeDowncast(entry, to: Output<Event>.EventEntry.self).receive(item.event, from: self)
        }
      }
    }
  }
}

// The lane's queue state is behind its lock; `round` and `deliversInline` belong to the thread that holds the
// output's delivery, handed from one holder to the next through the latch.
extension DeliveryLane: @unchecked Sendable {}

/// A flag set once, from any thread, and read without a lock: a queued entry's "cancelled".
final class OnceFlag {
  // The only stored property, reached through its address, read and written only atomically.
  private var word: UInt = 0

  private var address: UnsafeMutablePointer<UInt> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt.self)
  }

  var isSet: Bool { eventbus_atomic_load_acquire(address) != 0 }

  func set() {
    eventbus_atomic_store_release(address, 1)
  }
}

// The word is read and written only atomically.
extension OnceFlag: @unchecked Sendable {}
