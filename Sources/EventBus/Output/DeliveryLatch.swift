#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Which thread holds an output's delivery: one word that a `send` claims and lets go with one compare-and-swap each
/// and no lock.
///
/// A `send` that finds the output idle and nothing to record (no replay window, no trace) claims the word, delivers
/// to the round's entries (``RoundList``), and lets the word go, all with no lock: two atomic operations in all, where
/// the output's lock costs two for each of the two times a send would take it. Everything else goes through the lock,
/// and the word tells the lock holders what they may do:
///
/// - `0`: idle. A lock holder that changes the subscriber list marks the word ``changingEntries`` first, so that no
///   `send` claims it meanwhile, and changes the list in place.
/// - a thread's bits: that thread holds the delivery and reads the round's entries with no lock. They are frozen: a
///   lock holder that changes the subscriber list makes its change on a copy (``SubscriberList/changedEntries``).
/// - a thread's bits with ``workQueued`` set: as above, and a lock holder queued an event, a replay, a wait or a
///   changed list. The holder's lock-free release then fails, so it takes the lock and picks the work up.
///
/// Only ``DeliveryStorage`` touches the word: its lock-free `send`, and its locked steps.
///
/// A thread's bits are its `pthread_t`: on glibc, musl and Darwin the address of the thread's descriptor, aligned,
/// so its two low bits are free for the flags.
@usableFromInline
struct DeliveryLatch: ~Copyable {
  /// The holder must take the lock before letting go: something was queued or changed for it.
  @usableFromInline static let workQueued: UInt = 1
  /// A lock holder is changing the subscriber list in place; nobody may claim the delivery.
  @usableFromInline static let changingEntries: UInt = 2
  @usableFromInline static let flags: UInt = workQueued | changingEntries

  /// Who holds the delivery, and the flags above.
  @usableFromInline let word = AtomicWord()
  /// Why a `send` must take the lock (``sendNeedsLock``): ``replayWindowReason``, ``traceReason``, or neither.
  @usableFromInline let reasonsToLock = AtomicWord()
  /// The output keeps a replay window, which every send records under the lock.
  static let replayWindowReason: UInt = 1
  /// A trace hook is set, which every send reads under the lock.
  static let traceReason: UInt = 2

  @usableFromInline
  init() {}

  @inlinable @inline(__always)
  static func bits(of thread: ThreadIdentity) -> UInt {
    #if canImport(Glibc)
      UInt(thread.thread)  // an unsigned long
    #else
      UInt(bitPattern: thread.thread)  // a pointer (Darwin, musl)
    #endif
  }

  // MARK: With no lock

  /// Whether a `send` must take the lock: the output keeps a replay window, or a trace hook is set. Set under the
  /// output's lock, or before the output is shared.
  @inlinable @inline(__always)
  var sendNeedsLock: Bool {
    reasonsToLock.load() != 0
  }

  /// Claims the delivery for `thread` if the output is idle, and returns the holder. With no lock.
  @inlinable @inline(__always)
  func tryClaim(for thread: ThreadIdentity) -> DeliveryHolder? {
    var expected: UInt = 0
    guard word.compareExchange(expected: &expected, desired: Self.bits(of: thread)) else { return nil }
    return DeliveryHolder(claimed: thread)
  }

  /// Lets go of the delivery `holder` holds, unless work was queued for it: then returns `false` and the holder takes
  /// the lock. With no lock.
  @inlinable @inline(__always)
  func tryRelease(_ holder: borrowing DeliveryHolder) -> Bool {
    var expected = Self.bits(of: holder.thread)
    return word.compareExchange(expected: &expected, desired: 0)
  }

  // MARK: Under the output's lock

  /// Whether a thread holds the delivery.
  var isHeld: Bool {
    word.load() & ~Self.flags != 0
  }

  /// Whether `thread` holds the delivery. Exact for the calling thread: only it can make itself the holder or stop
  /// being one.
  func isHeld(by thread: ThreadIdentity) -> Bool {
    word.load() & ~Self.flags == Self.bits(of: thread)
  }

  /// The holder, if `thread`, the caller, holds the delivery: a handler that cancels on the delivering thread.
  func holder(ifHeldBy thread: ThreadIdentity) -> DeliveryHolder? {
    isHeld(by: thread) ? DeliveryHolder(claimed: thread) : nil
  }

  /// Claims the delivery for `thread` if nobody holds it and returns the holder; otherwise marks work queued for the
  /// holder, which then cannot let go before it takes the lock, and returns `nil`. Under the lock, with the work
  /// queued before the lock is released.
  @usableFromInline
  func claimOrMarkWorkQueued(for thread: ThreadIdentity) -> DeliveryHolder? {
    takeIdleOrMarkWorkQueued(settingTo: Self.bits(of: thread)) ? DeliveryHolder(claimed: thread) : nil
  }

  /// Marks work queued for the holder if a thread holds the delivery, which then cannot let go before it takes the
  /// lock, and returns `true`; returns `false` when the word is idle. Under the lock, with the work queued before the
  /// lock is released.
  func markWorkQueuedIfHeld() -> Bool {
    var current = word.load()
    while current != 0 {
      if current & Self.workQueued != 0
        || word.compareExchange(expected: &current, desired: current | Self.workQueued)
      {
        return true
      }
      // The holder let go, or another thread claimed, in between: look again.
    }
    return false
  }

  /// Starts a change of the subscriber list. Returns `true` when nobody holds the delivery: the word is now
  /// ``changingEntries``, the caller changes the list in place and calls ``endChangingEntries()``. Returns `false`
  /// when a thread holds it: the caller changes a copy, and the holder, marked, installs it.
  func beginChangingEntries() -> Bool {
    takeIdleOrMarkWorkQueued(settingTo: Self.changingEntries)
  }

  /// Sets the word to `value` if it is idle and returns `true`; otherwise marks work queued for the holder and
  /// returns `false`. Under the lock, where the word is never ``changingEntries``: only a lock holder sets it, and
  /// clears it before unlocking.
  @inline(__always)
  private func takeIdleOrMarkWorkQueued(settingTo value: UInt) -> Bool {
    var current = word.load()
    while true {
      if current == 0 {
        if word.compareExchange(expected: &current, desired: value) { return true }
      } else if current & Self.workQueued != 0
        || word.compareExchange(expected: &current, desired: current | Self.workQueued)
      {
        return false
      }
      // The holder let go, or another thread claimed, in between: look again.
    }
  }

  /// Ends an in-place change started by ``beginChangingEntries()``.
  func endChangingEntries() {
    word.store(0)
  }

  /// The holder, under the lock, at the end of a round: keeps the delivery for one more round, which it also ends under
  /// the lock, or lets go, after which the caller drops the holder. Nobody else changes the word while the holder has
  /// the lock: a claim fails on a held word, and every other change is made under the lock.
  @usableFromInline
  func settle(_ holder: borrowing DeliveryHolder, keeping: Bool) {
    word.store(keeping ? Self.bits(of: holder.thread) : 0)
  }

  /// Records that every `send` must take the lock for `reason`, or, if not `needsLock`, no longer for it. Under the
  /// lock, or before the output is shared.
  func setSendNeedsLock(_ needsLock: Bool, for reason: UInt) {
    let reasons = reasonsToLock.load()
    reasonsToLock.store(needsLock ? reasons | reason : reasons & ~reason)
  }
}

/// The calling thread holds an output's delivery: a value the compiler tracks, made only by a successful claim of the
/// latch, and gone once the latch is let go.
///
/// What only the holder may read or write, the round's skipped and dead entries and its lanes' places in the list
/// (``RoundList``), is reached only through methods that take one, so code that does not hold the delivery has nothing
/// to pass them and does not compile. It is noncopyable and not `Sendable`: it cannot be kept past the release, nor
/// handed to another thread. It is one word, passed in a register: holding it costs nothing.
///
/// Made in this file only, by ``DeliveryLatch/tryClaim(for:)`` (the lock-free send),
/// ``DeliveryLatch/claimOrMarkWorkQueued(for:)`` (a locked send or subscribe that found the output idle) and
/// ``DeliveryLatch/holder(ifHeldBy:)`` (a cancel made by the holder itself, from a handler). `HolderTests` fail when
/// any other file of the module or its tests makes one.
@usableFromInline
struct DeliveryHolder: ~Copyable {
  @usableFromInline let thread: ThreadIdentity

  /// Called only above, where a claim succeeded or the latch names `thread`; the initialiser is internal only because
  /// the lock-free claim is inlined into the caller's module.
  @inlinable @inline(__always)
  init(claimed thread: ThreadIdentity) {
    self.thread = thread
  }
}

// A holder belongs to the thread that claimed the delivery.
@available(*, unavailable)
extension DeliveryHolder: Sendable {}

extension DeliveryLatch: @unchecked Sendable {}
