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
