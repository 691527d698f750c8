/// One subscription in an output's subscriber list, as the list and the delivery loop see it: its slot, and the flags
/// of a round.
///
/// A class of its own, not generic: the list's code then needs no generic metadata at run time. A subscribe or a
/// cancel runs unspecialised (the caller's event type is unknown in this module), and there each lookup of a generic
/// type's metadata costs about 300 instructions, a third of a subscribe-and-cancel cycle. `Output.EventEntry` adds
/// what depends on the event type.
///
/// `slot`, `isRemoved` and `callSite` are read and written only under the owner's lock. The round's flags, skipped
/// and dead, belong to the thread that holds the delivery, and are reached only with its ``DeliveryHolder``.
@usableFromInline
class Entry: SubscriptionTarget {
  /// Position in the subscriber list. 32 bits keep every subscriber 8 bytes smaller.
  final var slot: Int32 = 0
  /// Removed from the list: cancelled, or found dead.
  final var isRemoved = false
  /// Cancelled by a handler on the delivering thread: skipped for the rest of the round. Holder-only: read and written
  /// through ``isSkipped(_:)`` and ``skipForRestOfRound(_:)``.
  @exclusivity(unchecked) @usableFromInline
  final var holderOnlySkipped = false
  /// Its responder was found deinitialised during the round. Holder-only: read and written through ``isDead(_:)``
  /// and ``markDead(_:)``.
  @exclusivity(unchecked) @usableFromInline
  final var holderOnlyDead = false
  /// Where it subscribed, numbered in the list's `CallSiteTable`. Set under the owner's lock, then immutable.
  final var callSite: CallSiteTable.ID = 0

  // The flags read and written only by code compiled in this module stay internal: whole-module optimisation proves
  // their accesses exclusive and removes the runtime's dynamic exclusivity checks. The two round flags are also read
  // and written by the delivery loop, inlined into the caller's module, where that proof cannot be made; they opt out
  // of the checks instead, which is sound because only the thread that holds the delivery touches them.

  @usableFromInline
  override init() {}

  /// Whether a handler cancelled the entry during this round, on the delivering thread.
  @inlinable @inline(__always)
  final func isSkipped(_: borrowing DeliveryHolder) -> Bool { holderOnlySkipped }

  /// Skips the entry for the rest of the round: it was cancelled by a handler on the delivering thread.
  final func skipForRestOfRound(_: borrowing DeliveryHolder) { holderOnlySkipped = true }

  /// Whether the round found the entry's responder deinitialised.
  @inlinable @inline(__always)
  final func isDead(_: borrowing DeliveryHolder) -> Bool { holderOnlyDead }

  /// Notes that the round found the entry's responder deinitialised.
  @inlinable @inline(__always)
  final func markDead(_: borrowing DeliveryHolder) { holderOnlyDead = true }

  /// Refuses the events its lane still holds for it, and any later. Entries delivered immediately have no lane.
  func close() {}

  /// Delivers the event at `event`, taken from the entry's lane, unless the entry was cancelled meanwhile. Only
  /// entries delivered through a lane override it; `event` points to a value of their output's event type.
  ///
  /// Declared here, with the event's type forgotten, so that the lane's drain loop calls it through this class, which
  /// is not generic: naming the generic entry class there would cost a run-time metadata lookup per delivery, in code
  /// that runs unspecialised.
  func receiveQueued(_ event: UnsafeMutableRawPointer) {}

  /// Initialises `slot` with what the lane holds for the entry during a run of waiting events (``HeldResponders``):
  /// its responder, or `nil`. Entries without a responder hold nothing.
  func holdQueued(at slot: UnsafeMutablePointer<AnyObject?>) {
    slot.initialize(to: nil)
  }

  /// Delivers as ``receiveQueued(_:)`` does, during a run in which the lane holds `held` for the entry
  /// (``holdQueued(at:)``). Entries without a responder ignore it.
  func receiveQueued(_ event: UnsafeMutableRawPointer, held: UnsafeMutablePointer<AnyObject?>) {
    receiveQueued(event)
  }
}

/// The owner of a subscriber list: an output, which a handle asks to remove its entry.
protocol EntryOwner: AnyObject, Sendable {
  /// Removes `entry`, if it is still there; called by the handle's `cancel()`.
  func remove(_ entry: Entry)

  /// Keeps `backlog`, an actor responder's mailbox, weakly, for ``waitUntilDelivered()`` to wait for it too.
  func track(_ backlog: any DeliveryBacklog)

  /// Returns once every event sent before the call has been delivered to every subscriber (`Output`'s method).
  func waitUntilDelivered() async throws
}

/// What a responder subscription's handle cancels: the entry, and the way back to its owner.
///
/// A responder entry does not keep the way back itself, which keeps it in a 64-byte heap allocation; and the handle is not
/// generic, so making one needs no generic metadata on the unspecialised subscribe path.
final class SubscriptionHandle: SubscriptionTarget {
  /// Weak: a handle kept after its output is gone must not keep the output alive.
  private weak var owner: (any EntryOwner)?
  private let entry: Entry

  init(owner: any EntryOwner, entry: Entry) {
    self.owner = owner
    self.entry = entry
  }

  override func cancel() {
    owner?.remove(entry)
    entry.close()
  }

  override var entryOwner: (any EntryOwner)? { owner }
}

// `slot` and `isRemoved` are guarded by the owner's lock; the round's flags are confined to the thread that holds the
// delivery (reached only with its `DeliveryHolder`), handed from one delivering thread to the next through the latch.
extension Entry: @unchecked Sendable {}

// The owner is a weak reference and the entry is `Sendable`; both are set once.
extension SubscriptionHandle: @unchecked Sendable {}
