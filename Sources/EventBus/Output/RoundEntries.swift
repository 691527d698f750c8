/// The subscribers the next round delivers to, where the thread that holds the delivery reads them with no lock.
///
/// In memory of its own, not in the state behind the output's lock: a lock holder's access to that state covers all of
/// it, and the holder's read of the list must not overlap one. Written only under the output's lock, by a caller that
/// marked the latch ``DeliveryLatch/changingEntries`` or that holds the delivery (``SubscriberList``).
@usableFromInline
final class RoundEntries {
  let list: UnsafeMutablePointer<EntryList>
  /// The elements of ``list``, which the holder of the delivery reads with no lock.
  ///
  /// Reading the array itself would copy it, a retain and a release of its buffer: two atomic operations a send, as
  /// many as the claim and the release together. A `ContiguousArray` keeps its elements at one address for the life of
  /// its buffer, and ``list`` keeps that buffer alive and unchanged until the next ``change(_:)``, which cannot run
  /// while a thread holds the delivery and reads this view.
  @usableFromInline let elements: UnsafeMutablePointer<UnsafeBufferPointer<Entry?>>
  /// The round's stamps, holder-only: read and written through the methods below, which take the ``DeliveryHolder``.
  ///
  /// `stamp` numbers the rounds that reach a queued entry, so that a lane queues each round's event once
  /// (``DeliveryLane``). `queued` is the stamp of the round whose event one lane, covering every queued entry of the
  /// list, has taken for all of them: the delivery loop then skips the other queued entries of the round. `complete`
  /// is the stamp of the round whose event one lane, covering every entry of the list, has taken for all of them: the
  /// delivery loop then stops rather than pass over the rest (a list of `.main` subscribers only).
  @exclusivity(unchecked) @usableFromInline var holderOnlyStamps = (stamp: UInt(0), queued: UInt(0), complete: UInt(0))
  /// Counts the changes of ``list``, so that a lane knows when to find its entries in it again. Written by
  /// ``change(_:)``; read by the thread that holds the delivery.
  private(set) var version: UInt = 0
  /// Whether a lane has taken ``list``'s buffer into a waiting item, whose block reads it on the lane's queue. Such a
  /// buffer is never written again: the next change writes a fresh copy (``change(_:)``). Set by the thread that holds
  /// the delivery; read and cleared by a lock holder that marked the latch ``DeliveryLatch/changingEntries`` or holds
  /// the delivery itself, which the latch orders after that holder.
  ///
  /// In place, the write would follow the block's last read only through the buffer's reference count: the block lets
  /// go of its copy, and the writer finds the buffer unique. That is no hand-off a tool such as ThreadSanitizer can
  /// see, and the language promises none.
  @exclusivity(unchecked) var isListShared = false

  /// The current round's stamp.
  @inlinable @inline(__always)
  func stamp(_: borrowing DeliveryHolder) -> UInt { holderOnlyStamps.stamp }

  /// Starts a new stamp, for a round that reaches a queued entry.
  @inlinable @inline(__always)
  func advanceStamp(_: borrowing DeliveryHolder) { holderOnlyStamps.stamp &+= 1 }

  /// Whether one lane has taken the current round's event for every queued entry.
  @inlinable @inline(__always)
  func isQueuedForEveryQueuedEntry(_: borrowing DeliveryHolder) -> Bool {
    holderOnlyStamps.queued == holderOnlyStamps.stamp
  }

  /// Whether one lane has taken the current round's event for every entry.
  @inlinable @inline(__always)
  func isQueuedForEveryEntry(_: borrowing DeliveryHolder) -> Bool {
    holderOnlyStamps.complete == holderOnlyStamps.stamp
  }

  /// Notes that a lane took the current round's event for every queued entry, and, if `everyEntry`, every entry.
  func noteQueued(forEveryEntry everyEntry: Bool, _: borrowing DeliveryHolder) {
    holderOnlyStamps.queued = holderOnlyStamps.stamp
    if everyEntry {
      holderOnlyStamps.complete = holderOnlyStamps.stamp
    }
  }

  init() {
    list = .allocate(capacity: 1)
    list.initialize(to: [])
    elements = .allocate(capacity: 1)
    elements.initialize(to: UnsafeBufferPointer(start: nil, count: 0))
  }

  deinit {
    list.deinitialize(count: 1)
    list.deallocate()
    elements.deinitialize(count: 1)
    elements.deallocate()
  }

  /// Changes ``list``: in place, or in a fresh copy when a lane has taken the buffer. Returns the buffer it replaced,
  /// if it made a copy, for the caller to release after unlocking.
  func change(_ change: (inout EntryList) -> Void) -> EntryList? {
    version &+= 1
    var retired: EntryList?
    if isListShared {
      retired = list.pointee
      list.pointee = Self.freshCopy(of: list.pointee)
      isListShared = false
    }
    change(&list.pointee)
    elements.pointee = list.pointee.withUnsafeBufferPointer { $0 }
    return retired
  }

  /// Replaces ``list`` with `newList`, a buffer no lane has taken. Returns the list it replaced.
  func install(_ newList: EntryList) -> EntryList {
    version &+= 1
    let retired = replacing(&list.pointee, with: newList)
    isListShared = false
    elements.pointee = list.pointee.withUnsafeBufferPointer { $0 }
    return retired
  }

  /// A copy of `list` in a buffer of its own, with room for one more entry.
  static func freshCopy(of list: EntryList) -> EntryList {
    var copy = EntryList()
    copy.reserveCapacity(list.count + 1)
    copy.append(contentsOf: list)
    return copy
  }
}

// Read and written as its comments say, ordered by the latch and the output's lock.
extension RoundEntries: @unchecked Sendable {}
