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
  /// Numbers the rounds that reach a queued entry, so that a lane queues each round's event once
  /// (``DeliveryLane``). Read and written only by the thread that holds the delivery.
  @exclusivity(unchecked) @usableFromInline var stamp: UInt = 0
  /// The ``stamp`` of the round whose event one lane, holding every queued entry of the list, has taken for all of
  /// them: the delivery loop then skips the other queued entries of the round. Read and written only by the thread
  /// that holds the delivery.
  @exclusivity(unchecked) @usableFromInline var queuedStamp: UInt = 0
  /// The ``stamp`` of the round whose event one lane, holding every entry of the list, has taken for all of them: the
  /// delivery loop then stops, rather than pass over the rest of the list (a list of `.main` subscribers only). Read
  /// and written only by the thread that holds the delivery.
  @exclusivity(unchecked) @usableFromInline var completeStamp: UInt = 0
  /// Counts the changes of ``list``, so that a lane knows when to find its entries in it again. Written by
  /// ``change(_:)``; read by the thread that holds the delivery.
  private(set) var version: UInt = 0

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

  func change(_ change: (inout EntryList) -> Void) {
    version &+= 1
    change(&list.pointee)
    elements.pointee = list.pointee.withUnsafeBufferPointer { $0 }
  }
}

// Read and written as its comments say, ordered by the latch and the output's lock.
extension RoundEntries: @unchecked Sendable {}
