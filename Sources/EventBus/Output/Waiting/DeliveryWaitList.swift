/// The waits a consumer of queued work must pass: the holder of an output's delivery (the events and replay windows
/// queued for it), a lane's block (the bursts waiting on its queue), an actor responder's mailbox (its events). Kept
/// under the consumer's lock; the consumer reports the waits it passed after unlocking (``DeliveryWait/arrive(_:)``).
///
/// A wait is passed once the consumer has finished the item it was working on when the wait came, if any, and every
/// item queued then: the consumer calls ``advance(takingAnother:)`` each time it has finished an item, which counts
/// down the items each wait is still behind. A consumer with no waits only asks ``isEmpty``.
@usableFromInline
struct DeliveryWaitList: Sendable {
  @usableFromInline var waits: [(wait: DeliveryWait, itemsAhead: Int)] = []

  @usableFromInline
  init() {}

  @inlinable
  var isEmpty: Bool { waits.isEmpty }

  var count: Int { waits.count }

  /// Adds `wait`, behind the item the consumer is working on, if any, and the `queued` items after it.
  mutating func add(_ wait: DeliveryWait, behind queued: Int) {
    waits.append((wait, queued))
  }

  /// The consumer finished the item it was working on, and takes another (`takingAnother`) or stops. Returns the
  /// waits it has passed, removed from the list, or `nil` when it passed none.
  @usableFromInline
  mutating func advance(takingAnother: Bool) -> [DeliveryWait]? {
    var passed: [DeliveryWait] = []
    var index = waits.startIndex
    while index < waits.endIndex {
      if waits[index].itemsAhead == 0 || !takingAnother {
        passed.append(waits.remove(at: index).wait)
      } else {
        waits[index].itemsAhead -= 1
        index += 1
      }
    }
    return passed.isEmpty ? nil : passed
  }

  /// Removes `wait`, whose task was cancelled.
  mutating func remove(_ wait: DeliveryWait) {
    waits.removeAll { $0.wait === wait }
  }
}

/// Where delivered events wait for their subscribers' context, which a wait registers with after the holder of the
/// delivery has handed them over: a lane, an actor responder's mailbox.
protocol DeliveryBacklog: AnyObject, Sendable {
  /// Keeps `wait` until everything waiting here now has been delivered, and returns `true`; returns `false`, keeping
  /// nothing, when nothing waits.
  func register(_ wait: DeliveryWait) -> Bool

  /// Removes `wait`, whose task was cancelled, if it is still kept.
  func forget(_ wait: DeliveryWait)
}

/// A weak reference to a backlog, read under an output's lock.
struct WeakBacklog: Sendable {
  weak var backlog: (any DeliveryBacklog)?
}
