/// Who is subscribed to an output, as the output's lock sees it: how many, where they subscribed, when to look for
/// dead responders, whom to tell of a change, and the list as changed during a round. A plain value: it changes the
/// list it is handed, and never touches the latch or the round (``DeliveryStorage`` decides which list it is handed).
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
    /// The list has doubled since the last prune: look for dead responders (``removeDead(_:from:)``).
    var shouldPrune = false
    /// Set when subscribers were added or removed: call it.
    @usableFromInline var membershipObserver: (@Sendable () -> Void)?
    /// A list the change replaced, or copied before removing from it: it still holds every entry removed.
    @usableFromInline var retired: EntryList?
    /// The entry removed, kept until the caller drops the change.
    var removed: Entry?
    /// The entries found dead and removed, kept until the caller drops the change.
    @usableFromInline var removedDead: EntryList?

    @inlinable
    init() {}
  }

  /// The list as changed during a round, installed by the holder of the delivery when the round ends; `nil` when none
  /// was. Changes made while a thread delivers go here, so the round's list stays as it was (G5).
  @usableFromInline var changedEntries: EntryList?
  /// Subscribers not removed.
  @usableFromInline private(set) var count = 0
  /// Called, with no lock held, after subscribers were added or removed.
  @usableFromInline var membershipObserver: (@Sendable () -> Void)?
  /// When `count` reaches it, the next subscribe prunes dead responders.
  private var pruneThreshold = minimumPruneThreshold
  /// Where the subscribers subscribed.
  private(set) var callSites = CallSiteTable()

  @usableFromInline
  init() {}

  /// Appends `entry`, which subscribed at `location`, to `entries`.
  mutating func add(_ entry: Entry, at location: CallSite, to entries: inout EntryList) -> Change {
    entry.callSite = callSites.id(for: location)
    entry.slot = Int32(truncatingIfNeeded: entries.count)
    entries.append(entry)
    count += 1
    var change = Change()
    change.membershipObserver = membershipObserver
    if count >= pruneThreshold {
      // Raised now, so that concurrent subscribers don't all start a prune.
      pruneThreshold = count * 2
      change.shouldPrune = true
    }
    return change
  }

  /// Removes `entry` from `entries`, unless it is already gone.
  mutating func remove(_ entry: Entry, from entries: inout EntryList) -> Change {
    var change = Change()
    guard remove(entry, leavingCompacted: &entries) else { return change }
    change.removed = entry
    change.membershipObserver = membershipObserver
    return change
  }

  /// Removes entries whose responder was seen deinitialised, unless already gone, and sets the next prune for when the
  /// list has doubled.
  @usableFromInline
  mutating func removeDead(_ dead: EntryList, from entries: inout EntryList) -> Change {
    var change = Change()
    for case let entry? in dead where remove(entry, leavingCompacted: &entries) {
      change.membershipObserver = membershipObserver
    }
    change.removedDead = dead
    pruneThreshold = Swift.max(Self.minimumPruneThreshold, count * 2)
    return change
  }

  /// Sets `entry`'s slot to `nil`, and compacts the list once removed slots outnumber live ones. Returns `false` when
  /// the entry was already gone.
  ///
  /// - Complexity: O(1) amortised.
  private mutating func remove(_ entry: Entry, leavingCompacted entries: inout EntryList) -> Bool {
    guard !entry.isRemoved else { return false }
    count -= 1
    entry.isRemoved = true
    entries[Int(entry.slot)] = nil
    if entries.count >= 32, count * 2 < entries.count {
      Self.compact(&entries, live: count)
    }
    return true
  }

  /// Rewrites `entries` without its removed slots, once they outnumber the live ones.
  ///
  /// - Complexity: O(*n*), once every *n* removals: O(1) amortised.
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
