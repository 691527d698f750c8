// The lane's unsafe code, in one file: the raw memory of its waiting events (`LaneBuffer`) and of the responders a
// block holds (`HeldResponders`), and the walks that borrow a list's entries without retaining them. Everything else
// of the lane (`DeliveryLane`) is safe code. `LaneBufferTests` and the lane's suites run under ThreadSanitizer and
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

/// The responders a ``DeliveryLane`` holds while it delivers a run of waiting events to the same entries: one weak
/// load, and one release, for each responder of the run, not one for each event.
///
/// A weak load takes a strong reference through the responder's side table, and its release gives it back the same
/// way: two atomic operations and about 140 instructions, most of a delivery's cost. When a burst waits in the lane,
/// its events share the round's list and the lane's offsets in it (the same buffers, while nobody subscribes or
/// cancels), so the lane loads each responder once for all of them.
///
/// Holding a responder must not keep it in the game once its owners let it go (G4, G6): before each delivery the
/// entry checks that the run's reference is not the last one. If it is, the responder would have deinitialised
/// already; the entry lets it go at once, which runs its `deinit` there, outside any lock, as the last weak load's
/// release would have, and cancels itself. The check reads the reference count of a native Swift object; for an
/// Objective-C object (on Apple platforms) the runtime cannot tell, and answers "not the last": such a responder is let
/// go when the run ends, as one another thread holds at that moment. Every platform runs this same path.
///
/// A responder subscribed more than once in the run is held once, in one slot its entries share: two references of
/// the run's would keep its count above one for the whole run, as if its owners still held it. A responder that
/// another queue's block holds at the same time looks held too: it gets that block's events until one of the two
/// runs lets it go, as it would get an event whose delivery on another thread had taken a reference to it.
///
/// Not generic, like the rest of the lane's per-event code. Belongs to the lane's block, one at a time. It owns raw
/// memory, so it is noncopyable, and frees it when it goes (``free()``).
///
/// Invariant, upheld here: while a run is held (`entries != nil`), the first `count` slots of `storage` are
/// initialised, each holding a strong reference or `nil`, and `slots[i]` names a slot at or before `i`; between runs
/// none is initialised. `end()` deinitialises them before anything else can run.
struct HeldResponders: ~Copyable {
  /// One slot per offset of the run, each a responder or `nil` (an entry without a responder, one gone, or one whose
  /// responder an earlier slot holds).
  private var storage: UnsafeMutablePointer<AnyObject?>?
  /// For each offset of the run, the slot that holds its responder: its own, or an earlier one's.
  private var slots: UnsafeMutablePointer<Int32>?
  /// An open-addressing set of the run's responders' addresses, to find one held twice: `2^tableBits` words, at
  /// least twice `capacity`, zero where empty.
  private var table: UnsafeMutablePointer<UInt>?
  private var tableBits = 0
  private var capacity = 0
  private var count = 0
  /// The run's list and offsets, kept so that their buffers' addresses identify the run: no other buffer can take
  /// those addresses while they are kept.
  private var entries: EntryList?
  private var offsets: ContiguousArray<Int32>?

  /// Whether the run delivers to `item`'s entries: the same list and the same offsets in it.
  func holds(_ item: borrowing LaneBuffer.Item) -> Bool {
    guard let entries, let offsets else { return false }
    return Self.address(of: entries) == Self.address(of: item.entries)
      && Self.address(of: offsets) == Self.address(of: item.offsets)
  }

  /// Starts a run over `item`'s entries, all of them queued entries of an output of `Event`s: holds each one's
  /// responder, if it has one, is not cancelled and is alive. A responder-owned entry found deinitialised cancels
  /// itself.
  mutating func hold<Event: Sendable>(_ item: borrowing LaneBuffer.Item, of _: Event.Type) {
    precondition(entries == nil, "a lane's run began before the last one ended")
    let needed = item.offsets.count
    if capacity < needed {
      storage?.deallocate()
      slots?.deallocate()
      table?.deallocate()
      capacity = Swift.max(needed, capacity &* 2)
      storage = .allocate(capacity: capacity)
      slots = .allocate(capacity: capacity)
      tableBits = Int.bitWidth &- (capacity &* 2 &- 1).leadingZeroBitCount
      table = .allocate(capacity: 1 &<< tableBits)
    }
    let (storage, slots) = (storage.unsafelyUnwrapped, slots.unsafelyUnwrapped)
    item.entries.withUnsafeBufferPointer { entries in
      for (index, offset) in item.offsets.enumerated() {
        if let entry = entries[Int(offset)] {
          // A lane's entries are queued entries of its output.
          (storage + index).initialize(to: unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self).responderToHold())
        } else {
          (storage + index).initialize(to: nil)
        }
        slots[index] = Int32(truncatingIfNeeded: index)
      }
    }
    count = needed
    entries = item.entries
    offsets = item.offsets
    if needed > 1 && holdsAResponderTwice() {
      shareSlots()
    }
  }

  /// Whether two slots hold the same responder. A set of addresses in the table, hashed by multiplying: about ten
  /// instructions a responder, and no allocation, where a `Set` would hash each with SipHash.
  private func holdsAResponderTwice() -> Bool {
    let (storage, table) = (storage.unsafelyUnwrapped, table.unsafelyUnwrapped)
    let mask = (1 &<< tableBits) &- 1
    table.update(repeating: 0, count: mask &+ 1)
    for index in 0..<count {
      guard let responder = UnsafeRawPointer(storage + index).load(as: UnsafeRawPointer?.self) else { continue }
      let address = UInt(bitPattern: responder)
      var position = Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth &- tableBits))
      while true {
        let occupant = table[position]
        if occupant == 0 {
          table[position] = address
          break
        }
        if occupant == address { return true }
        position = (position &+ 1) & mask
      }
    }
    return false
  }

  /// Makes each responder held once: a later slot holding a responder an earlier one holds lets it go, which is not
  /// its last release, and its offset shares the earlier slot.
  private func shareSlots() {
    let (storage, slots) = (storage.unsafelyUnwrapped, slots.unsafelyUnwrapped)
    var first: [UnsafeRawPointer: Int32] = [:]
    for index in 0..<count {
      guard let responder = UnsafeRawPointer(storage + index).load(as: UnsafeRawPointer?.self) else { continue }
      if let earlier = first[responder] {
        storage[index] = nil
        slots[index] = earlier
      } else {
        first[responder] = Int32(truncatingIfNeeded: index)
      }
    }
  }

  /// Hands `event` to the run's entries, in order, each with the responder its slot holds.
  ///
  /// Before each delivery the entry checks that the run's reference is not the last one. If it is, the responder's
  /// owners let it go, and without the run it would be deinitialising, its weak reference nil (G4): it goes now, its
  /// deinit run here as a weak load's release would, and the entry cancels itself.
  func deliver<Event: Sendable>(_ event: inout Event) {
    guard let entries, let offsets, let storage, let slots else { return }
    entries.withUnsafeBufferPointer { entries in
      guard let base = UnsafeRawPointer(entries.baseAddress) else { return }
      for index in offsets.indices {
        guard
          let object = base.load(
            fromByteOffset: Int(offsets[index]) &* MemoryLayout<UnsafeRawPointer?>.stride, as: UnsafeRawPointer?.self)
        else { continue }
        Unmanaged<Entry>.fromOpaque(object)._withUnsafeGuaranteedRef { entry in
          let entry = unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self)
          let held = storage + Int(slots[index])
          guard let responder = UnsafeRawPointer(held).load(as: UnsafeRawPointer?.self) else {
            return entry.receiveHoldingNothing(&event)
          }
          guard !isKnownUniquelyReferenced(&held.pointee) else {
            held.pointee = nil
            return entry.cancel()
          }
          Unmanaged<AnyObject>.fromOpaque(responder)._withUnsafeGuaranteedRef {
            entry.receive(&event, heldResponder: $0)
          }
        }
      }
    }
  }

  /// Ends the run: releases what it holds, which may run a responder's `deinit`. Call it outside any lock.
  mutating func end() {
    guard entries != nil else { return }
    // Taken out first, so a deinit that runs here finds the run ended.
    let (storage, count) = (self.storage, self.count)
    self.count = 0
    entries = nil
    offsets = nil
    storage?.deinitialize(count: count)
  }

  /// Ends the run and frees the storage. Call it outside any lock.
  mutating func free() {
    end()
    storage?.deallocate()
    slots?.deallocate()
    table?.deallocate()
    storage = nil
    slots = nil
    table = nil
    tableBits = 0
    capacity = 0
  }

  private static func address<Element>(of array: ContiguousArray<Element>) -> UnsafeRawPointer? {
    array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
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
