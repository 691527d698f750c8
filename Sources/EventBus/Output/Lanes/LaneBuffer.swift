// The lane's unsafe code, in two files: the raw memory of its waiting events and the walks that borrow a list's entries
// without retaining them (`LaneBuffer`, here), and the responders a block holds (`HeldResponders.swift`). Everything
// else of the lane (`DeliveryLane`) is safe code. `LaneBufferTests` and the lane's suites run under ThreadSanitizer and
// AddressSanitizer in CI.

/// The events waiting in a ``DeliveryLane``, first in first out, each with its round's list and where the lane's
/// entries are in it.
///
/// Invariant, upheld here: `capacity` slots of `items` and of `events` are allocated; the `count` slots from `head`
/// (wrapping) are initialised, the others not. Only `DeliveryLane`, under its lock, or its block, which owns the value
/// it swapped out, touches one.
///
/// Not generic, its storage raw, and every method that touches an event given the event's type: the lane's code runs
/// unspecialised, where each use of a generic type built on the event type (an item struct, a buffer of them) costs a
/// run-time metadata lookup of hundreds of instructions, four of them for every event sent. A pointer to events needs
/// only the event type's own metadata, which the lane has.
///
/// A value owns its memory, so it is noncopyable: the lane keeps two, which take turns through `swap`, and empties and
/// frees them when it deinitialises (``free(of:)``), which needs the event type. Capacity is kept when the queue
/// empties, so a steady rhythm of sends allocates nothing.
struct LaneBuffer: ~Copyable {
  /// What goes with each event.
  struct Item {
    /// The round's list, kept whole so that no entry of it is freed before the event is delivered.
    var entries: EntryList
    /// Where the lane's entries are in `entries`, in order.
    var offsets: ContiguousArray<Int32>
    /// Events a bounded lane's policy dropped just before this one, told to its subscriber before it.
    var missedBefore = 0
  }

  private var items: UnsafeMutablePointer<Item>?
  /// `capacity` events, each `MemoryLayout<Event>.stride` bytes apart, at the same positions as their items.
  private var events: UnsafeMutableRawPointer?
  private var capacity = 0
  private var head = 0
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// Appends `event` with its item, growing the storage when it is full.
  mutating func append<Event>(_ event: Event, _ item: consuming Item) {
    if count == capacity {
      grow(for: Event.self)
    }
    let position = (head &+ count) % capacity
    (items.unsafelyUnwrapped + position).initialize(to: item)
    slot(position, of: Event.self).initialize(to: event)
    count &+= 1
  }

  /// Removes the first event and hands it to `body`, in place, with its item; frees both once `body` returns.
  ///
  /// - Precondition: The queue is not empty.
  mutating func removeFirst<Event>(of _: Event.Type, _ body: (inout Event, Item) -> Void) {
    precondition(count > 0, "removeFirst from an empty lane queue")
    let position = head
    head = (head &+ 1) % capacity
    count &-= 1
    let item = (items.unsafelyUnwrapped + position).move()
    let event = slot(position, of: Event.self)
    defer { event.deinitialize(count: 1) }
    body(&event.pointee, item)
  }

  /// Adds `missed` to the events dropped just before the first one waiting.
  ///
  /// - Precondition: The queue is not empty.
  mutating func addMissed(_ missed: Int) {
    precondition(count > 0, "addMissed on an empty lane queue")
    (items.unsafelyUnwrapped + head).pointee.missedBefore &+= missed
  }

  /// Moves the first event and its item to the end of `other`, with the events dropped before it, and returns those.
  /// Keeps everything in this type, whose code names no generic type: a value of `(Event, Item)` here would make
  /// the lane's unspecialised code look its metadata up at run time.
  ///
  /// - Precondition: The queue is not empty.
  @discardableResult
  mutating func moveFirst<Event>(to other: inout LaneBuffer, of _: Event.Type) -> Int {
    precondition(count > 0, "moveFirst from an empty lane queue")
    let position = head
    head = (head &+ 1) % capacity
    count &-= 1
    let item = (items.unsafelyUnwrapped + position).move()
    let missed = item.missedBefore
    other.append(slot(position, of: Event.self).move(), item)
    return missed
  }

  /// Deinitialises what waits and frees the storage, leaving an empty queue. Call it outside any lock: freeing an
  /// event or a list can run a deinit of the user's.
  mutating func free<Event>(of _: Event.Type) {
    while !isEmpty {
      removeFirst(of: Event.self) { (_: inout Event, _) in }
    }
    items?.deallocate()
    events?.deallocate()
    items = nil
    events = nil
    capacity = 0
    head = 0
  }

  private func slot<Event>(_ position: Int, of _: Event.Type) -> UnsafeMutablePointer<Event> {
    (events.unsafelyUnwrapped + position &* MemoryLayout<Event>.stride).assumingMemoryBound(to: Event.self)
  }

  /// Doubles the capacity (four at first), moving what waits to the start of the new storage.
  private mutating func grow<Event>(for _: Event.Type) {
    let newCapacity = Swift.max(4, capacity &* 2)
    let newItems = UnsafeMutablePointer<Item>.allocate(capacity: newCapacity)
    let newEvents = UnsafeMutableRawPointer.allocate(
      byteCount: newCapacity &* MemoryLayout<Event>.stride, alignment: MemoryLayout<Event>.alignment)
    for offset in 0..<count {
      let position = (head &+ offset) % capacity
      (newItems + offset).moveInitialize(from: items.unsafelyUnwrapped + position, count: 1)
      (newEvents + offset &* MemoryLayout<Event>.stride).assumingMemoryBound(to: Event.self)
        .moveInitialize(from: slot(position, of: Event.self), count: 1)
    }
    items?.deallocate()
    events?.deallocate()
    items = newItems
    events = newEvents
    capacity = newCapacity
    head = 0
  }
}

extension LaneBuffer {
  /// Hands `event` to the entries at `offsets` of `entries`, in order: a lone event, delivered with a weak load per
  /// responder, which costs it less than a run's hold and release. The item keeps its entries for the whole loop, so
  /// each is borrowed, not retained and released.
  static func deliver<Event: Sendable>(_ event: inout Event, to offsets: ContiguousArray<Int32>, of entries: EntryList)
  {
    entries.withUnsafeBufferPointer { entries in
      guard let base = UnsafeRawPointer(entries.baseAddress) else { return }
      for offset in offsets {
        guard
          let object = base.load(
            fromByteOffset: Int(offset) &* MemoryLayout<UnsafeRawPointer?>.stride, as: UnsafeRawPointer?.self)
        else { continue }
        Unmanaged<Entry>.fromOpaque(object)._withUnsafeGuaranteedRef { entry in
          // A lane's entries are queued entries of its output.
          unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self).receive(&event)
        }
      }
    }
  }

  /// Tells the entries at `offsets` of `entries` that their policy dropped `missed` events since the last one they
  /// received (a bounded subscription's lane has one entry).
  static func reportLag<Event: Sendable>(
    _ missed: Int, to offsets: ContiguousArray<Int32>, of entries: EntryList, eventType _: Event.Type
  ) {
    for offset in offsets {
      guard let entry = entries[Int(offset)] else { continue }
      // A lane's entries are queued entries of its output.
      unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self).receiveLag(missed)
    }
  }

  /// `handler` with its responder's type forgotten, for an `Output.QueuedEntry`, which keeps one handler type for
  /// every responder. Invariant: the entry calls it only with its own responder, of type `Responder`, so the downcast
  /// always holds.
  static func handler<Responder: AnyObject & Sendable, Event>(
    forgettingTypeOf _: Responder.Type, _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> @Sendable (AnyObject, inout Event) -> Void {
    { responder, event in handler(unsafeDowncast(responder, to: Responder.self), event) }
  }
}
