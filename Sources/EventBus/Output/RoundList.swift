/// An output's subscribers in the order they subscribed. `nil` marks a removed one until compaction.
@usableFromInline
typealias EntryList = ContiguousArray<Entry?>

/// The subscribers a round delivers to, and what only the holder of the delivery reads and writes during a round: a
/// handle over memory of its own, owned by ``DeliveryStorage``, the only type that reaches it.
///
/// Invariants, upheld by ``DeliveryStorage`` and checked by the latch model and by the sanitizer runs of the storage's
/// tests and the reliability suites:
/// - **Who writes.** ``change(_:)`` and ``install(_:)`` run under the output's lock, by a caller that marked the latch
///   ``DeliveryLatch/changingEntries`` or that holds the delivery. Every method that takes a ``DeliveryHolder`` runs on
///   the holder's thread, with or without the lock. So no write overlaps the holder's lock-free reads: the latch's
///   compare-and-swaps order them.
/// - **Borrowed entries.** ``DeliveryStorage/deliver(_:holder:isLockFree:)`` reads each entry of ``entries`` without
///   retaining it. The list keeps
///   every entry alive while the holder reads, because the list changes only as said above.
/// - **A buffer a lane took is never written again.** A lane that queues an event keeps the list's buffer with it, and
///   its block reads that buffer on another thread; ``change(_:)`` then writes a fresh copy. In place, the write
///   would follow the block's last read only through the buffer's reference count: no hand-off ThreadSanitizer can
///   see, and none the language promises.
///
/// Why memory of its own, and not stored properties: the holder reads with no lock while lock holders may access the
/// rest of the output's state, and a class's stored properties would be subject to exclusivity checks at run time on
/// every read of the inlined delivery loop. Why two pieces: while a thread holds the delivery, lock holders still read
/// the list (``List``, to copy it or count it), and the holder writes its own fields (``Contents``); Swift's access of
/// a pointee covers the whole pointee, so the two must not share one.
@usableFromInline
struct RoundList<Event: Sendable>: ~Copyable {
  /// One queue's lane, where its entries are in ``List/entries``, in order, and what it did with the round's event.
  @usableFromInline
  struct LanePlan {
    @usableFromInline let lane: DeliveryLane<Event>
    @usableFromInline var offsets: ContiguousArray<Int32>
    /// The round whose event the lane was last offered (``Contents/round``).
    @usableFromInline var offeredRound: UInt = 0
    /// Whether it left that event to its entries to take inline, on the main queue.
    @usableFromInline var deliversInline = false
  }

  /// The list, which lock holders read while a thread holds the delivery, and the holder reads with no lock.
  @usableFromInline
  struct List {
    /// The list rounds deliver to.
    @usableFromInline var entries: EntryList = []
    /// The elements of ``entries``, which the holder reads: reading the array itself would retain and release its
    /// buffer, two atomic operations a send. Valid as long as ``entries`` is unchanged.
    @usableFromInline var elements = UnsafeBufferPointer<Entry?>(start: nil, count: 0)
  }

  /// What the holder reads and writes during its rounds, and a lock holder only while nobody holds the delivery.
  @usableFromInline
  struct Contents {
    /// A lane keeps the list's buffer with an event it queued: the next change writes a copy.
    @usableFromInline var isShared = false
    /// The list changed since the holder last found the lanes in it (``lanes``).
    @usableFromInline var lanesAreStale = false
    /// Whether a round has lane work to begin with: the lanes are stale, or there are some. One flag, read by every
    /// round, where most outputs have no lane.
    @usableFromInline var roundHasLaneWork = false
    /// The lanes of the list's queued entries, in the order of their first entry.
    @usableFromInline var lanes: ContiguousArray<LanePlan> = []
    /// For each slot of the list, the index of its entry's lane in ``lanes``, or -1.
    @usableFromInline var laneIndexes: ContiguousArray<Int32> = []
    /// Whether the list has an entry delivered on the sending thread.
    @usableFromInline var hasImmediateEntries = false
    /// Numbers the rounds that reach a lane, so that each lane is offered each event once.
    @usableFromInline var round: UInt = 0
    /// Entries a handler cancelled on the delivering thread during this round, skipped for its rest.
    @usableFromInline var skipped: ContiguousArray<ObjectIdentifier> = []
    /// Whether ``skipped`` has any, read for every entry of a round.
    @usableFromInline var hasSkipped = false
    /// Entries whose responder the round found deinitialised, for the end of the round to remove.
    @usableFromInline var dead: EntryList = []
  }

  /// Two allocations, not one: Swift's access of a pointee covers all of it, so a lock holder that reads the list
  /// while the holder writes its own fields would overlap it (ThreadSanitizer reports such an access race).
  @usableFromInline let list: UnsafeMutablePointer<List>
  @usableFromInline let contents: UnsafeMutablePointer<Contents>

  init() {
    list = .allocate(capacity: 1)
    list.initialize(to: List())
    contents = .allocate(capacity: 1)
    contents.initialize(to: Contents())
  }

  deinit {
    list.deinitialize(count: 1)
    list.deallocate()
    contents.deinitialize(count: 1)
    contents.deallocate()
  }

  // MARK: Under the lock: changing the list

  /// The list as of the last change or install.
  var entries: EntryList { list.pointee.entries }

  /// Changes the list: in place, or in a fresh copy when a lane has taken the buffer. Returns the buffer it replaced,
  /// if it made a copy, for the caller to release after unlocking.
  @usableFromInline
  func change<Result>(_ body: (inout EntryList) -> Result) -> (result: Result, retired: EntryList?) {
    var retired: EntryList?
    if contents.pointee.isShared {
      retired = list.pointee.entries
      list.pointee.entries = Self.freshCopy(of: list.pointee.entries)
      contents.pointee.isShared = false
    }
    let result = body(&list.pointee.entries)
    didChange()
    return (result, retired)
  }

  /// Replaces the list with `newList`, a buffer no lane has taken. Returns the list it replaced.
  @usableFromInline
  func install(_ newList: EntryList) -> EntryList {
    let retired = replacing(&list.pointee.entries, with: newList)
    contents.pointee.isShared = false
    didChange()
    return retired
  }

  @usableFromInline
  func didChange() {
    list.pointee.elements = list.pointee.entries.withUnsafeBufferPointer { $0 }
    contents.pointee.lanesAreStale = true
    contents.pointee.roundHasLaneWork = true
    // Found again by the next round that has lanes. Dropped now, so that a lane whose last entry left goes with it: a
    // lane nothing else keeps has nothing waiting, so its deinit frees only its storage, under the lock.
    contents.pointee.lanes.removeAll()
  }

  /// A copy of `list` in a buffer of its own, with room for one more entry.
  static func freshCopy(of list: EntryList) -> EntryList {
    var copy = EntryList()
    copy.reserveCapacity(list.count + 1)
    copy.append(contentsOf: list)
    return copy
  }

  // MARK: The holder's round

  /// Notes that a handler cancelled `entry` on the delivering thread: the round skips it from now on (G4, G5).
  func skip(_ entry: Entry, _: borrowing DeliveryHolder) {
    contents.pointee.skipped.append(ObjectIdentifier(entry))
    contents.pointee.hasSkipped = true
  }

  /// Whether a handler cancelled `entry` on the delivering thread during this round.
  @inlinable @inline(__always)
  func isSkipped(_ entry: Entry, _: borrowing DeliveryHolder) -> Bool {
    contents.pointee.hasSkipped && contents.pointee.skipped.contains(ObjectIdentifier(entry))
  }

  /// Notes that the round found `entry`'s responder deinitialised.
  @usableFromInline
  func markDead(_ entry: Entry, _: borrowing DeliveryHolder) {
    contents.pointee.dead.append(entry)
  }

  /// Ends the round, under the lock: forgets the skipped entries and hands over those found dead.
  @usableFromInline
  func endRound(_: borrowing DeliveryHolder) -> EntryList {
    contents.pointee.skipped.removeAll(keepingCapacity: true)
    contents.pointee.hasSkipped = false
    guard !contents.pointee.dead.isEmpty else { return [] }
    return replacing(&contents.pointee.dead, with: [])
  }

}

// Read and written as the invariants above say, ordered by the latch and the output's lock.
extension RoundList: @unchecked Sendable {}
