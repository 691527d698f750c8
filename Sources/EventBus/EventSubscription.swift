/// Something that can be cancelled: an ``EventSubscription`` or a ``ResponderSubscription``.
public protocol EventCancellable: Sendable {
  /// Ends the subscription. Calling it again does nothing.
  func cancel()
}

/// What a subscription handle points at. Output entries and broadcaster subscriptions conform.
package protocol SubscriptionTarget: AnyObject, Sendable {
  /// Idempotent; must not wait for a handler running on another thread.
  func cancel()
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
  // Emptied by the first `cancel()`: a cancelled token that still sits in a set must not keep the handler, and
  // everything it captures, alive (that would also keep a retain cycle through the token's owner).
  private let target: LockedState<(any SubscriptionTarget)?>

  package init(target: any SubscriptionTarget) {
    self.target = LockedState(target)
  }

  /// Wraps any cancel action, so other kinds of observation can be stored beside subscriptions.
  ///
  /// - Parameter cancel: Called once, on the first `cancel()` or when the token is released.
  public convenience init(_ cancel: @escaping @Sendable () -> Void) {
    self.init(target: CancelAction(cancel))
  }

  deinit {
    cancel()
  }

  /// Ends the subscription. Calling it again, or releasing the token afterwards, does nothing.
  ///
  /// Returns at once, without waiting for a handler running on another thread. After it returns, no event sent later
  /// reaches the handler; events already queued for a `.main` or `.queue` handler are dropped.
  public func cancel() {
    let target = target.take()
    // Released after cancelling, with no lock held: it may be the last reference to the handler.
    target?.cancel()
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
  private let target: any SubscriptionTarget

  package init(target: any SubscriptionTarget) {
    self.target = target
  }

  /// Ends the subscription before its responder deinitialises. Calling it again does nothing.
  ///
  /// Returns at once, without waiting for a handler running on another thread. After it returns, no event sent later
  /// reaches the responder; events already queued for a `.main` or `.queue` handler are dropped.
  public func cancel() {
    target.cancel()
  }

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

/// A cancel action run at most once.
private final class CancelAction: SubscriptionTarget {
  private let action: LockedState<(@Sendable () -> Void)?>

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = LockedState(action)
  }

  func cancel() {
    let action = action.take()
    action?()
  }
}
