/// The events waiting in a ``DeliveryLane``, first in first out, each with its round's list and where the lane's
/// entries are in it.
///
/// Not generic, its storage raw, and every method that touches an event given the event's type: the lane's code runs
/// unspecialised, where each use of a generic type built on the event type (an item struct, a buffer of them) costs a
/// run-time metadata lookup of hundreds of instructions, four of them for every event sent. A pointer to events needs
/// only the event type's own metadata, which the lane has.
///
/// A value owns its memory, so it is noncopyable: the lane keeps two, which take turns through `swap`, and empties and
/// frees them when it deinitialises (``free(of:)``), which needs the event type. Capacity is kept when the queue
/// empties, so a steady rhythm of sends allocates nothing.
struct LaneItems: ~Copyable {
  /// What goes with each event.
  struct Item {
    /// The round's list, kept whole so that no entry of it is freed before the event is delivered.
    var entries: EntryList
    /// Where the lane's entries are in `entries`, in order.
    var offsets: ContiguousArray<Int32>
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
  mutating func removeFirst<Event>(of _: Event.Type, _ body: (UnsafeMutablePointer<Event>, Item) -> Void) {
    precondition(count > 0, "removeFirst from an empty lane queue")
    let position = head
    head = (head &+ 1) % capacity
    count &-= 1
    let item = (items.unsafelyUnwrapped + position).move()
    let event = slot(position, of: Event.self)
    defer { event.deinitialize(count: 1) }
    body(event, item)
  }

  /// Deinitialises what waits and frees the storage, leaving an empty queue. Call it outside any lock: freeing an
  /// event or a list can run a deinit of the user's.
  mutating func free<Event>(of _: Event.Type) {
    while !isEmpty {
      removeFirst(of: Event.self) { _, _ in }
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
