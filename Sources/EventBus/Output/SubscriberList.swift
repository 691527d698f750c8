/// An output's subscribers in the order they subscribed. `nil` marks a removed one until compaction.
@usableFromInline
typealias EntryList = ContiguousArray<Entry?>

/// Who is subscribed to an output, in order, and which thread holds its delivery: the part of the output's state that
/// does not depend on the event type. Lives under the output's lock.
///
/// A round delivers to ``roundEntries`` with no lock. So that list changes in place only while nobody holds the
/// delivery; a change made during a round goes to a copy, ``changedEntries``, which the holder installs, under the
/// lock, when the round ends. That is also what G5 asks: a subscriber added during a round is not in it, one cancelled
/// from another thread is removed from the next.
///
/// Every change returns a ``Change``: what the caller does after unlocking, and every list or entry the change took
/// out, so that nothing is released, and no `deinit` runs, while the lock is held.
///
/// Not generic, so the subscribe and cancel paths, which run unspecialised, reach it with no generic metadata.
@usableFromInline
struct SubscriberList: Sendable {
  static let minimumPruneThreshold = 64

  /// What a change of the list hands back. The caller drops it, and calls the observer, with no lock held.
  @usableFromInline
  struct Change: Sendable {
    /// The list has doubled since the last prune: look for dead responders (``removeDead(_:)``).
    var shouldPrune = false
    /// Set when subscribers were added or removed: call it.
    @usableFromInline var membershipObserver: (@Sendable () -> Void)?
    /// A list the change replaced, or copied before removing from it: it still holds every entry removed.
    @usableFromInline var retired: EntryList?
    /// The entry removed, kept until the caller drops the change.
    var removed: Entry?

    @inlinable
    init() {}
  }

  /// The list as changed during a round, installed by the holder when the round ends; `nil` when none was.
  private var changedEntries: EntryList?
  /// Subscribers not removed: the non-`nil` slots of ``entries``.
  @usableFromInline private(set) var count = 0
  /// Which thread holds the delivery; shared with the output, which claims it with no lock.
  @usableFromInline let latch = DeliveryLatch()
  /// The list rounds deliver to; shared with the output, which reads it with no lock while it holds the delivery.
  @usableFromInline let round = RoundEntries()
  /// Called, with no lock held, after subscribers were added or removed.
  @usableFromInline var membershipObserver: (@Sendable () -> Void)?
  /// When `count` reaches it, the next subscribe prunes dead responders.
  private var pruneThreshold = minimumPruneThreshold
  /// Where the subscribers subscribed.
  private(set) var callSites = CallSiteTable()

  @usableFromInline
  init() {}

  /// The list rounds deliver to.
  @usableFromInline var roundEntries: EntryList { round.list.pointee }

  /// The subscribers as of now, changes made during a running round included.
  @usableFromInline var entries: EntryList { changedEntries ?? roundEntries }

  // MARK: Membership

  /// Appends `entry`, which subscribed at `location`.
  mutating func add(_ entry: Entry, at location: CallSite) -> Change {
    entry.callSite = callSites.id(for: location)
    var change = Change()
    change.retired = changeEntries { entries in
      entry.slot = Int32(truncatingIfNeeded: entries.count)
      entries.append(entry)
    }
    count += 1
    change.membershipObserver = membershipObserver
    if count >= pruneThreshold {
      // Raised now, so that concurrent subscribers don't all start a prune.
      pruneThreshold = count * 2
      change.shouldPrune = true
    }
    return change
  }

  /// `entry` is cancelled from `thread`; nothing changes if it was already gone.
  ///
  /// Cancelled on the delivering thread (from a handler, possibly several outputs deep), it is also skipped for the
  /// rest of the round (G4, G5).
  mutating func cancel(_ entry: Entry, from thread: ThreadIdentity) -> Change {
    let change = remove(entry)
    if change.removed != nil, let holder = latch.holder(ifHeldBy: thread) {
      entry.skipForRestOfRound(holder)
    }
    return change
  }

  /// Removes `entry` unless it is already gone, from the list as of now. Also how the holder of the delivery removes
  /// an entry found dead while it received its replay window.
  @usableFromInline
  mutating func remove(_ entry: Entry) -> Change {
    var change = Change()
    guard !entry.isRemoved else { return change }
    count -= 1
    change.retired = changeEntries { [count] entries in Self.remove(entry, from: &entries, leaving: count) }
    change.removed = entry
    change.membershipObserver = membershipObserver
    return change
  }

  /// Removes entries whose responder was seen deinitialised, and sets the next prune for when the list has doubled.
  mutating func removeDead(_ dead: [Entry]) -> Change {
    var change = Change()
    let removed = dead.filter { !$0.isRemoved }
    if !removed.isEmpty {
      count -= removed.count
      change.retired = changeEntries { [count] entries in
        for entry in removed {
          Self.remove(entry, from: &entries, leaving: count)
        }
      }
      change.membershipObserver = membershipObserver
      // `dead`, the caller's, keeps every removed entry until the caller has unlocked.
    }
    pruneThreshold = Swift.max(Self.minimumPruneThreshold, count * 2)
    return change
  }

  // MARK: The round

  /// The holder of the delivery, at the end of a round: installs the list changed during the round and removes the
  /// entries of the round's list that it found dead.
  ///
  /// The list the round used goes into the change whenever an entry may leave it: replaced, or copied before a dead
  /// entry is removed in place. That list is then the removed entries' last owner, and the caller drops it with no
  /// lock held; their handlers' captures may have a `deinit` that calls back into the output.
  @usableFromInline
  mutating func finishRound(deadFound: Bool, holder: borrowing DeliveryHolder) -> Change {
    var change = Change()
    if let changedEntries {
      // Made under the lock from a copy, so no lane has taken its buffer.
      change.retired = round.install(changedEntries)
      self.changedEntries = nil
    }
    guard deadFound else { return change }
    // The round's list, kept in the change, holds every entry the round delivered to; while it is kept, the removals
    // below write to a copy.
    let delivered = change.retired ?? roundEntries
    change.retired = delivered
    for case let entry? in delivered where entry.isDead(holder) && !entry.isRemoved {
      count -= 1
      // A list this replaces is the round's, which `delivered` keeps: dropping it here frees nothing.
      _ = round.change { [count] in Self.remove(entry, from: &$0, leaving: count) }
      change.membershipObserver = membershipObserver
    }
    return change
  }

  /// Claims the delivery for `thread` if nobody holds it and returns `true`; otherwise marks work queued for the
  /// holder and returns `false`. The caller queues that work before it unlocks.
  @usableFromInline
  func claimOrMarkWorkQueued(for thread: ThreadIdentity) -> Bool {
    latch.claimOrMarkWorkQueued(for: thread)
  }

  /// The holder, `thread`, keeps the delivery for one more round, or lets it go.
  @usableFromInline
  func settle(holder thread: ThreadIdentity, keeping: Bool) {
    latch.settle(holder: thread, keeping: keeping)
  }

  /// Whether a thread holds the delivery.
  var isDelivering: Bool { latch.isHeld }

  /// Marks work queued for the holder, if a thread holds the delivery, and returns whether one does. The caller
  /// queues that work before it unlocks.
  func markWorkQueuedIfDelivering() -> Bool {
    latch.markWorkQueuedIfHeld()
  }

  // MARK: Changing the list

  /// Runs `change` on the current list: in place when nobody holds the delivery, else on the changed copy.
  ///
  /// `change` only sets slots to `nil` or appends; the entries it removes are kept by the caller, so none is freed here.
  /// Returns a list the change replaced (a buffer a lane had taken), for the caller to release after unlocking.
  private mutating func changeEntries(_ change: (inout EntryList) -> Void) -> EntryList? {
    if changedEntries == nil, latch.beginChangingEntries() {
      let retired = round.change(change)
      latch.endChangingEntries()
      return retired
    }
    // The copy is made here, under the lock, and no lane takes it before the holder installs it.
    var entries = changedEntries ?? RoundEntries.freshCopy(of: roundEntries)
    changedEntries = nil
    change(&entries)
    changedEntries = entries
    return nil
  }

  /// Removes `entry`, which is in `entries`, leaving `live` subscribers. The caller holds a reference to it, so it is
  /// not freed here.
  ///
  /// - Complexity: O(1) amortised: the slot becomes `nil`, and the list is compacted once removed slots outnumber
  ///   live ones.
  private static func remove(_ entry: Entry, from entries: inout EntryList, leaving live: Int) {
    entry.isRemoved = true
    entries[Int(entry.slot)] = nil
    if entries.count >= 32, live * 2 < entries.count {
      compact(&entries, live: live)
    }
  }

  private static func compact(_ entries: inout EntryList, live: Int) {
    var compacted = EntryList()
    compacted.reserveCapacity(Swift.max(live * 2, 16))
    for case let entry? in entries {
      entry.slot = Int32(truncatingIfNeeded: compacted.count)
      compacted.append(entry)
    }
    entries = compacted
  }
}
