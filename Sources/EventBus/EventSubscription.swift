/// Something that can be cancelled: an ``EventSubscription`` or a ``ResponderSubscription``.
public protocol EventCancellable: Sendable {
  /// Ends the subscription. Calling it again does nothing.
  func cancel()
}

/// What a token or a handle ends: an output's entry, a handle to one, an actor's subscription or a cancel action.
protocol SubscriptionTarget: AnyObject, Sendable {
  /// Ends the subscription. Idempotent; never waits for a handler running on another thread.
  func cancel()

  /// The events waiting for this subscriber off the sending thread: in its queue's lane, or its actor's mailbox.
  var waitingCount: Int { get }

  /// The events its buffering policy dropped.
  var droppedCount: Int { get }

  /// The output whose subscriber list holds the subscription, if the target knows it and the output is alive.
  var entryOwner: (any EntryOwner)? { get }

  /// Where the subscription delivers and how it is bounded, for `debugDescription`.
  var subscriptionDescription: String { get }
}

extension SubscriptionTarget {
  var waitingCount: Int { 0 }
  var droppedCount: Int { 0 }
  var entryOwner: (any EntryOwner)? { nil }
  var subscriptionDescription: String { "immediate" }
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
/// A responder entry does not keep the way back itself, which keeps it in a 48-byte heap allocation; and the handle is
/// not generic, so making one needs no generic metadata on the unspecialised subscribe path.
final class SubscriptionHandle: SubscriptionTarget {
  /// Weak: a handle kept after its output is gone must not keep the output alive.
  private weak var owner: (any EntryOwner)?
  private let entry: Entry

  init(owner: any EntryOwner, entry: Entry) {
    self.owner = owner
    self.entry = entry
  }

  func cancel() {
    owner?.remove(entry)
  }

  var entryOwner: (any EntryOwner)? { owner }

  var subscriptionDescription: String { "\(entry.targetDescription) (\(entry.contextDescription))" }
}

// The owner is a weak reference and the entry is `Sendable`; both are set once.
extension SubscriptionHandle: @unchecked Sendable {}

/// The locks of the tokens: a token's target is taken by its first `cancel()` under one of these, chosen by the
/// token's address. Striped rather than one per token: a lock of its own would cost every token-owned subscription an
/// allocation, and a cancel is rare next to a delivery.
enum TokenLocks {
  private static let stripes = (0..<16).map { _ in LockedState(()) }

  static func withLock<Result>(for token: AnyObject, _ body: () -> Result) -> Result {
    let index = Int(bitPattern: UInt(bitPattern: ObjectIdentifier(token).hashValue) >> 4 & 15)
    return stripes[index].withLock { _ in body() }
  }
}

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
  // The target, taken by the first `cancel()`, which leaves `nil`. So a cancelled token that still sits in a set keeps
  // nothing alive (not the handler, nor what it captures, which could make a retain cycle through the token's owner).
  // Guarded by the token's stripe of `TokenLocks`; kept as `AnyObject`, one word, and cast back when cancelled.
  private var target: AnyObject?

  #if DEBUG
    /// Debug builds only: what the token's `deinit` asks whether the release was a mistake. Set once, by the
    /// `subscribe` that made the token, before the token is returned.
    var earlyReleaseCheck: EarlyReleaseCheck?
  #endif

  init(target: some SubscriptionTarget) {
    self.target = target
  }

  /// Wraps any cancel action, so other kinds of observation can be stored beside subscriptions.
  ///
  /// - Parameter cancel: Called once, on the first `cancel()` or when the token is released.
  public convenience init(_ cancel: @escaping @Sendable () -> Void) {
    self.init(target: CancelAction(cancel))
  }

  deinit {
    // Taken under the lock, as `cancel()` takes it: a `cancel()` on another thread may have come just before.
    guard let target = TokenLocks.withLock(for: self, { self.target.take() }) else { return }
    #if DEBUG
      // Released without a `cancel()` before: the subscription ends here, perhaps before it could deliver anything.
      earlyReleaseCheck?.tokenReleased()
    #endif
    Self.end(target)
  }

  /// Ends the subscription. Calling it again, or releasing the token afterwards, does nothing.
  ///
  /// Returns at once, without waiting for a handler running on another thread. After it returns, no event sent later
  /// reaches the handler; events already queued for a `.main` or `.queue` handler are dropped.
  public func cancel() {
    let target = TokenLocks.withLock(for: self) { self.target.take() }
    // Cancelled and released with no lock held: it may be the last reference to the handler.
    if let target {
      Self.end(target)
    }
  }

  private static func end(_ target: AnyObject) {
    // Only a `SubscriptionTarget` is ever stored.
    (target as? any SubscriptionTarget)?.cancel()
  }

  /// The target, unless the token was cancelled.
  private var liveTarget: (any SubscriptionTarget)? {
    TokenLocks.withLock(for: self) { target } as? any SubscriptionTarget
  }

  /// The events waiting for this subscriber on its queue or the main actor, not yet delivered: `0` for immediate
  /// delivery, which never waits, and once cancelled. Unbounded subscribers of one queue share a lane, whose count
  /// each of them shows.
  public var waitingCount: Int { liveTarget?.waitingCount ?? 0 }

  /// The events this subscription's buffering policy dropped (``DeliveryContext/BufferingPolicy``); `0` once
  /// cancelled.
  public var droppedCount: Int { liveTarget?.droppedCount ?? 0 }

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

extension EventSubscription: CustomDebugStringConvertible {
  /// Where the subscription delivers, its buffering policy, and what waits and was dropped.
  public var debugDescription: String {
    "EventSubscription(\(liveTarget?.subscriptionDescription ?? "cancelled"))"
  }
}

/// A handle to a responder-owned subscription.
///
/// The subscription belongs to its responder and ends when the responder deinitialises; dropping this handle does
/// **not** end it. Keep the handle only if you want to end the subscription early with ``cancel()`` (an observer
/// that stops observing while its responder lives on).
public struct ResponderSubscription: EventCancellable, Hashable {
  private let target: any SubscriptionTarget

  init(target: any SubscriptionTarget) {
    self.target = target
  }

  /// Ends the subscription before its responder deinitialises. Calling it again does nothing.
  ///
  /// Returns at once, without waiting for a handler running on another thread. After it returns, no event sent later
  /// reaches the responder; events already queued for a `.main` or `.queue` handler are dropped.
  public func cancel() {
    target.cancel()
  }

  /// The events waiting for this subscriber off the sending thread and not yet delivered: in its actor's mailbox, or
  /// in the lane of its queue or the main actor. Unbounded subscribers of one queue share a lane, whose count each of
  /// them shows; `0` for immediate delivery, which never waits (events wait for the delivering thread in the stream,
  /// ``Output/pendingCount``). (`pendingCount` before: on an output
  /// that word means the events waiting for the thread that delivers.)
  public var waitingCount: Int { target.waitingCount }

  /// The events this subscription's buffering policy dropped (``DeliveryContext/BufferingPolicy``): each one the
  /// subscriber also learned of through the context's `onLag`, before the next event it received.
  public var droppedCount: Int { target.droppedCount }

  /// The events waiting for this subscriber in a queue of its own.
  @available(*, deprecated, renamed: "waitingCount")
  public var pendingCount: Int { waitingCount }

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

extension ResponderSubscription: CustomDebugStringConvertible {
  /// Where the subscription delivers, its buffering policy, and what waits and was dropped.
  public var debugDescription: String {
    "ResponderSubscription(\(target.subscriptionDescription))"
  }
}

/// A cancel action, run by the token that holds it, which cancels at most once.
private final class CancelAction: SubscriptionTarget {
  // The action is immutable and `@Sendable`.
  private let action: @Sendable () -> Void

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = action
  }

  func cancel() {
    action()
  }
}

// The target is read and written under the token's stripe of `TokenLocks` after `init`, and by `deinit`, when nothing
// else can reach the token. The debug check is set before the token is shared, and read only by `deinit`.
extension EventSubscription: @unchecked Sendable {}
