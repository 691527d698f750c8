import EventBus
import Foundation

/// One keyboard observer for the whole app: every screen that cares about the keyboard subscribes here, and the six
/// keyboard notifications are observed once and decoded once per notification, whatever the number of screens.
///
/// ```swift
/// let keyboard = KeyboardBroadcaster()                      // app-wide, e.g. in a dependency container
/// keyboard.subscribe(screen) { screen, event in screen.handle(keyboard: event) }
/// keyboard.subscribe(formController)                        // a KeyboardObserverEventResponder, on the main actor
/// ```
///
/// A ``Broadcaster`` over ``NotificationSource/keyboard(center:)``. While at least one subscriber is alive it keeps one
/// NotificationCenter observer per keyboard notification name, and none otherwise. A notification whose `userInfo`
/// lacks a key or has a value of the wrong type is not delivered; it is counted in
/// ``Broadcaster/decodeFailureCount`` and reported to ``Broadcaster/onDecodeFailure`` with the key and the reason,
/// and later notifications arrive as usual.
///
/// A screen that deinitialises is noticed at the next keyboard notification, the next pruning subscribe, or when
/// ``Broadcaster/pruneDeadSubscribers()`` is called; until then the observers stay registered. See ``Broadcaster``
/// for why.
public typealias KeyboardBroadcaster = Broadcaster<KeyboardEvent>

extension Broadcaster where Event == KeyboardEvent {
  /// Creates a keyboard broadcaster. Nothing is observed until the first subscriber arrives.
  ///
  /// - Parameter center: The notification center the keyboard notifications are posted to; `.default` by default.
  public convenience init(center: NotificationCenter = .default) {
    self.init(source: NotificationSource.keyboard(center: center))
  }
}

extension NotificationSource where Event == KeyboardEvent {
  /// The six keyboard notifications of ``KeyboardNotification/all`` on `center`, each decoded into a
  /// ``KeyboardEvent``.
  ///
  /// Build a broadcaster on it yourself to read its ``observerCount``:
  ///
  /// ```swift
  /// let source = NotificationSource.keyboard(center: center)
  /// let keyboard = KeyboardBroadcaster(source: source)
  /// ```
  ///
  /// - Parameter center: The notification center the keyboard notifications are posted to; `.default` by default.
  /// - Returns: A source whose decode throws a ``DecodeFailure`` naming the key at fault.
  public static func keyboard(center: NotificationCenter = .default) -> NotificationSource<KeyboardEvent> {
    NotificationSource(names: KeyboardNotification.all, center: center) { notification in
      try KeyboardEvent(notification: notification)
    }
  }
}
