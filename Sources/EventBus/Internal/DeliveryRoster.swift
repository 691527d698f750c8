/// Whether a call added or removed subscribers.
enum MembershipChange {
  case unchanged
  /// Call the observer, if any, with no lock held.
  case changed((@Sendable () -> Void)?)
}

/// One subscriber as the delivery state machine sees it: a slot in the subscriber list, and the flags of a round.
///
/// A class of its own, not generic: the machine's membership code then needs no generic metadata at run time. A
/// subscribe or a cancel runs unspecialised (the caller's event type is unknown in this module), and there each
/// lookup of a generic type's metadata (`ContiguousArray<Member?>`, `Optional<Member>`) costs 300 instructions:
/// callgrind counted them as a third of a subscribe-and-cancel cycle.
///
/// `slot`, `isRemoved` and `callSite` are read and written only under the owner's lock. `isSkipped` and `isDead`
/// belong to the thread that holds the delivery (see ``DeliveryStateMachine``).
@usableFromInline
class DeliveryMember {
  /// Position in the subscriber list. 32 bits keep every subscriber 8 bytes smaller.
  final var slot: Int32 = 0
  /// Removed from the list: cancelled, or found dead.
  final var isRemoved = false
  /// Cancelled by a handler on the delivering thread: skipped for the rest of the round.
  @exclusivity(unchecked) @usableFromInline
  final var isSkipped = false
  /// Its responder was found deinitialised during the round.
  @exclusivity(unchecked) @usableFromInline
  final var isDead = false
  /// Where it subscribed, numbered in the roster's `CallSiteTable`. Set under the owner's lock, then immutable.
  final var callSite: CallSiteTable.ID = 0

  // The flags read and written only by code compiled in this module stay internal: whole-module optimisation proves
  // their accesses exclusive and removes the runtime's dynamic exclusivity checks (200 instructions a
  // subscribe-and-cancel cycle). The two round flags are also read and written by the delivery loop, inlined into
  // the caller's module, where that proof cannot be made; they opt out of the checks instead (70 instructions a
  // delivery), which is sound because only the thread that holds the delivery touches them (see the note above).

  @usableFromInline
  init() {}

  /// Drops what waits in the member's mailbox and refuses more. Members delivered immediately have none.
  func closeMailbox() {}
}

/// The owner of a list of members: an output, which a handle asks to remove its member.
protocol MemberOwner: AnyObject, Sendable {
  /// Removes `member`, if it is still there; called by the handle's `cancel()`.
  func remove(_ member: DeliveryMember)
}

/// What a subscriber's handle cancels: the member, and the way back to its owner.
///
/// The entry does not keep the way back itself, which keeps it 8 bytes smaller; and the handle is not generic, so
/// making one needs no generic metadata on the unspecialised subscribe path.
final class SubscriptionHandle: SubscriptionTarget {
  /// Weak: a handle kept after its output is gone must not keep the output alive.
  private weak var owner: (any MemberOwner)?
  private let member: DeliveryMember

  init(owner: any MemberOwner, member: DeliveryMember) {
    self.owner = owner
    self.member = member
  }

  func cancel() {
    owner?.remove(member)
    member.closeMailbox()
  }
}

// The owner is a weak reference and the member is `Sendable`; both are set once.
extension SubscriptionHandle: @unchecked Sendable {}

/// Who is subscribed to an output, in order, and which thread holds its delivery: the part of
/// ``DeliveryStateMachine`` that does not depend on the event type.
///
/// The list a round delivers to, ``published``, is read by the thread that holds the delivery with no lock (see
/// ``DeliveryLatch``). So it changes in place only while nobody holds the delivery; a change made during a round goes
/// to a staged copy, which the holder installs, under the lock, when the round ends. That is also what G5 asks: a
/// subscriber added during a round is not in it, one cancelled from another thread is removed from the next.
///
/// Not generic, so the subscribe and cancel paths, which run unspecialised, reach it with no generic metadata.
@usableFromInline
struct DeliveryRoster: Sendable {
  static let minimumPruneThreshold = 64

  /// What adding a member asks of the caller, with no lock held.
  struct Addition {
    /// The list has doubled since the last prune: look for dead responders (``removeDead(_:)``).
    var shouldPrune: Bool
    var membershipObserver: (@Sendable () -> Void)?
  }

  /// The list as changed during a round, installed by the holder when the round ends; `nil` when none was.
  private var staged: ContiguousArray<DeliveryMember?>?
  /// Members not removed: the non-`nil` slots of ``members``.
  @usableFromInline private(set) var memberCount = 0
  /// Which thread holds the delivery; shared with the output, which claims it with no lock.
  @usableFromInline let latch = DeliveryLatch()
  /// Called, with no lock held, after members were added or removed.
  @usableFromInline var membershipObserver: (@Sendable () -> Void)?
  /// When `memberCount` reaches it, the next subscribe prunes dead responders.
  private var pruneThreshold = minimumPruneThreshold
  /// Where the members subscribed.
  private(set) var callSites = CallSiteTable()

  @usableFromInline
  init() {}

  /// The list rounds deliver to, subscribers in order. `nil` marks a removed one until compaction. Kept by the
  /// latch, where the holder of the delivery reads it with no lock.
  @usableFromInline var published: ContiguousArray<DeliveryMember?> { latch.published.pointee }

  /// The subscribers as of now, changes made during a running round included.
  @usableFromInline
  var members: ContiguousArray<DeliveryMember?> { staged ?? published }

  /// Appends `member`, which subscribed at `location`.
  mutating func add(_ member: DeliveryMember, at location: CallSite) -> Addition {
    member.callSite = callSites.id(for: location)
    changeMembers { members in
      member.slot = Int32(truncatingIfNeeded: members.count)
      members.append(member)
    }
    memberCount += 1
    var addition = Addition(shouldPrune: false, membershipObserver: membershipObserver)
    if memberCount >= pruneThreshold {
      // Raised now, so that concurrent subscribers don't all start a prune.
      pruneThreshold = memberCount * 2
      addition.shouldPrune = true
    }
    return addition
  }

  /// `member` is cancelled from `thread`; `.unchanged` if it was already gone.
  ///
  /// Cancelled on the delivering thread (from a handler, possibly several outputs deep), it is also skipped for the
  /// rest of the round (G4, G5).
  mutating func cancel(_ member: DeliveryMember, from thread: ThreadIdentity) -> MembershipChange {
    guard removeIfPresent(member) else { return .unchanged }
    if latch.isHeld(by: thread) {
      member.isSkipped = true
    }
    return .changed(membershipObserver)
  }

  /// Removes members whose responder was seen deinitialised, and sets the next prune for when the list has doubled.
  mutating func removeDead(_ dead: [DeliveryMember]) -> MembershipChange {
    let removed = dead.filter { !$0.isRemoved }
    if !removed.isEmpty {
      memberCount -= removed.count
      changeMembers { [memberCount] members in
        for member in removed {
          Self.remove(member, from: &members, leaving: memberCount)
        }
      }
    }
    pruneThreshold = Swift.max(Self.minimumPruneThreshold, memberCount * 2)
    return removed.isEmpty ? .unchanged : .changed(membershipObserver)
  }

  /// The holder of the delivery, under the lock, at the end of a round: installs the list staged during the round and
  /// removes the members of the round's list that it found dead. Returns the list the round used if it was replaced
  /// (for the caller to release with no lock held) and whether any member was removed.
  @usableFromInline
  mutating func finishRound(deadFound: Bool) -> (retired: ContiguousArray<DeliveryMember?>?, removedAny: Bool) {
    var retired: ContiguousArray<DeliveryMember?>?
    if let staged {
      retired = published
      latch.changePublished { $0 = staged }
      self.staged = nil
    }
    var removedAny = false
    if deadFound {
      // The round's list still holds every member it delivered to.
      for case let member? in retired ?? published where member.isDead && !member.isRemoved {
        memberCount -= 1
        latch.changePublished { [memberCount] in Self.remove(member, from: &$0, leaving: memberCount) }
        removedAny = true
      }
    }
    return (retired, removedAny)
  }

  /// Removes `member` unless it is already gone, from the list as of now; returns whether it was there. Also how the
  /// holder of the delivery removes a member found dead while it received its replay window.
  @inline(__always)
  mutating func removeIfPresent(_ member: DeliveryMember) -> Bool {
    guard !member.isRemoved else { return false }
    memberCount -= 1
    changeMembers { [memberCount] members in Self.remove(member, from: &members, leaving: memberCount) }
    return true
  }

  /// Runs `change` on the current list: in place when nobody holds the delivery, else on the staged copy.
  private mutating func changeMembers(_ change: (inout ContiguousArray<DeliveryMember?>) -> Void) {
    if staged == nil, latch.beginChangingMembers() {
      latch.changePublished(change)
      latch.endChangingMembers()
      return
    }
    var members = staged ?? published
    staged = nil
    change(&members)
    staged = members
  }

  /// Removes `member`, which is in `members`, leaving `live` members. The caller holds a reference to it, so it is
  /// not freed here.
  ///
  /// - Complexity: O(1) amortised: the slot becomes `nil`, and the list is compacted once removed slots outnumber
  ///   live ones.
  private static func remove(
    _ member: DeliveryMember, from members: inout ContiguousArray<DeliveryMember?>, leaving live: Int
  ) {
    member.isRemoved = true
    members[Int(member.slot)] = nil
    if members.count >= 32, live * 2 < members.count {
      compact(&members, live: live)
    }
  }

  private static func compact(_ members: inout ContiguousArray<DeliveryMember?>, live: Int) {
    var compacted = ContiguousArray<DeliveryMember?>()
    compacted.reserveCapacity(Swift.max(live * 2, 16))
    for case let member? in members {
      member.slot = Int32(truncatingIfNeeded: compacted.count)
      compacted.append(member)
    }
    members = compacted
  }
}

// `slot` and `isRemoved` are guarded by the owner's lock; `isSkipped` and `isDead` are confined to the thread that
// holds the delivery, handed from one delivering thread to the next through the latch.
extension DeliveryMember: @unchecked Sendable {}
