/// Something that can be cancelled: an ``EventSubscription`` or a ``ResponderSubscription``.
public protocol EventCancellable: Sendable {
  /// Ends the subscription. Calling it again does nothing.
  func cancel()
}

/// What a token or a handle ends: an output's entry, a handle to one, or a cancel action.
///
/// A class, not a protocol, so that a token keeps it in one word that an atomic exchange can take. Subclasses override
/// ``cancel()``; the base has nothing to end.
@usableFromInline
class SubscriptionTarget {
  @usableFromInline
  init() {}

  /// Ends the subscription. Idempotent; never waits for a handler running on another thread.
  func cancel() {}

  /// The events waiting for this subscriber alone; only an actor responder's subscription has such a queue.
  var pendingCount: Int { 0 }

  /// The output whose subscriber list holds the subscription, if the target knows it and the output is alive.
  var entryOwner: (any EntryOwner)? { nil }
}

// Subclasses say what protects their state; the base has none.
extension SubscriptionTarget: @unchecked Sendable {}

/// A token-owned subscription: it lives until you cancel it or release the token.
///
/// Keep the token for as long as you want events; the compiler warns if you drop it:
///
/// ```swift
/// final class Logger {
///   private var subscriptions = Set<EventSubscription>()
///   init(output: Output<AppEvent>) {
///     output.subscribe { event in print(event) }.store(in: &subscriptions)
///   }
/// }
/// ```
///
/// `cancel()` is idempotent and returns at once. After it returns, no event sent later reaches the handler,
/// and nothing more is delivered to it on the cancelling thread (G4).
public final class EventSubscription: EventCancellable, Hashable {
  // A retained reference to the target, as a word, taken by the first `cancel()` with one atomic exchange, which
  // leaves 0. So a cancelled token that still sits in a set keeps nothing alive (not the handler, nor what it
  // captures, which could make a retain cycle through the token's owner), and a token has no lock of its own.
  private let target: AtomicWord

  #if DEBUG
    /// Debug builds only: what the token's `deinit` asks whether the release was a mistake. Set once, by the
    /// `subscribe` that made the token, before the token is returned.
    var earlyReleaseCheck: EarlyReleaseCheck?
  #endif

  init(target: SubscriptionTarget) {
    self.target = AtomicWord(UInt(bitPattern: Unmanaged.passRetained(target).toOpaque()))
  }

  /// Wraps any cancel action, so other kinds of observation can be stored beside subscriptions.
  ///
  /// - Parameter cancel: Called once, on the first `cancel()` or when the token is released.
  public convenience init(_ cancel: @escaping @Sendable () -> Void) {
    self.init(target: CancelAction(cancel))
  }

  deinit {
    #if DEBUG
      // Released without a `cancel()` before: the subscription ends here, perhaps before it could deliver anything.
      // Read as `cancel()` writes it, atomically: a `cancel()` on another thread may have come just before.
      if target.load() != 0 {
        earlyReleaseCheck?.tokenReleased()
      }
    #endif
    cancel()
  }

  /// Ends the subscription. Calling it again, or releasing the token afterwards, does nothing.
  ///
  /// Returns at once, without waiting for a handler running on another thread. After it returns, no event sent later
  /// reaches the handler; events already queued for a `.main` or `.queue` handler are dropped.
  public func cancel() {
    let word = target.exchange(0)
    guard let pointer = UnsafeRawPointer(bitPattern: word) else { return }
    // Released after cancelling, with no lock held: it may be the last reference to the handler.
    Unmanaged<SubscriptionTarget>.fromOpaque(pointer).takeRetainedValue().cancel()
  }

  /// Keeps the subscription alive as long as the set holds it.
  ///
  /// - Parameter set: The set that owns the token, typically a stored property of the subscriber.
  public func store(in set: inout Set<EventSubscription>) {
    set.insert(self)
  }

  /// Keeps the subscription alive as long as the array holds it.
  ///
  /// - Parameter array: The array that owns the token, typically a stored property of the subscriber.
  public func store(in array: inout [EventSubscription]) {
    array.append(self)
  }

  /// Whether both are the same token (identity, not the handler).
  public static func == (lhs: EventSubscription, rhs: EventSubscription) -> Bool {
    lhs === rhs
  }

  /// Hashes the token's identity, so tokens can be stored in a `Set`.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

/// A handle to a responder-owned subscription.
///
/// The subscription belongs to its responder and ends when the responder deinitialises; dropping this handle does
/// **not** end it. Keep the handle only if you want to end the subscription early with ``cancel()`` (an observer
/// that stops observing while its responder lives on).
public struct ResponderSubscription: EventCancellable, Hashable {
  private let target: SubscriptionTarget

  init(target: SubscriptionTarget) {
    self.target = target
  }

  /// Ends the subscription before its responder deinitialises. Calling it again does nothing.
  ///
  /// Returns at once, without waiting for a handler running on another thread. After it returns, no event sent later
  /// reaches the responder; events already queued for a `.main` or `.queue` handler are dropped.
  public func cancel() {
    target.cancel()
  }

  /// The events waiting for this subscriber in a queue of its own: an actor responder's backlog, which grows while
  /// the actor handles events slower than they arrive. `0` for every other subscription, whose events wait in the
  /// stream (``Output/pendingCount``) or on the queue of their delivery context.
  public var pendingCount: Int { target.pendingCount }

  /// The output whose subscriber list holds the subscription: what `EventRecorder.waitUntilDelivered()` waits for.
  var entryOwner: (any EntryOwner)? { target.entryOwner }

  /// Keeps the handle in `set`, to cancel it later with the others. Storing it does not extend the subscription:
  /// it still ends when its responder deinitialises.
  ///
  /// - Parameter set: The set of handles, typically a stored property of an observer.
  public func store(in set: inout Set<ResponderSubscription>) {
    set.insert(self)
  }

  /// Keeps the handle in `array`, to cancel it later with the others.
  ///
  /// - Parameter array: The array of handles, typically a stored property of an observer.
  public func store(in array: inout [ResponderSubscription]) {
    array.append(self)
  }

  /// Whether both handles end the same subscription.
  public static func == (lhs: ResponderSubscription, rhs: ResponderSubscription) -> Bool {
    lhs.target === rhs.target
  }

  /// Hashes the subscription's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(target))
  }
}

/// A cancel action, run by the token that holds it, which cancels at most once.
private final class CancelAction: SubscriptionTarget {
  private let action: @Sendable () -> Void

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = action
  }

  override func cancel() {
    action()
  }
}

// The action is immutable and `@Sendable`.
extension CancelAction: @unchecked Sendable {}

// The target word is read and written only atomically after `init`. The debug check is set before the
// token is shared, and read only by `deinit`.
extension EventSubscription: @unchecked Sendable {}
