import EventBus
import Foundation

/// A ``Broadcaster`` over NotificationCenter: one observer per notification name while anyone listens, and one
/// decode per notification, whatever the number of subscribers.
///
/// ```swift
/// let sessions = NotificationBroadcaster(names: [.sessionDidExpire, .sessionDidRenew]) { notification in
///   try SessionEvent(notification)          // runs once per notification, not once per subscriber
/// }
/// sessions.subscribe(accountScreen) { screen, event in screen.handle(event: event) }
/// ```
///
/// A notification whose decode throws is not delivered: it is counted in ``Broadcaster/decodeFailureCount`` and
/// reported to ``Broadcaster/onDecodeFailure`` with the notification's name; later notifications are delivered as
/// usual. Throw a ``DecodeFailure`` to say which `userInfo` key was at fault.
///
/// Handlers run on the thread that posted the notification, unless the subscription chose another delivery context.
/// Connection, disconnection and lifetimes are those of the ``Broadcaster`` it is built on, ``broadcaster``, whose
/// counters it shows as its own.
public final class NotificationBroadcaster<Event: Sendable>: EventStream {
  /// The observed notification names, without duplicates, in the order given.
  public let names: [Notification.Name]
  /// The observed notification center.
  public let center: NotificationCenter
  /// The broadcaster that shares the observers among the subscribers.
  public let broadcaster: Broadcaster<Event>
  private let observers: LockedState<Int>

  /// Creates a broadcaster for notifications called `names` on `center`. Nothing is observed until the first
  /// subscriber arrives.
  ///
  /// - Parameters:
  ///   - names: The notification names to observe; one NotificationCenter observer each while connected.
  ///   - center: The notification center; `.default` by default.
  ///   - object: Only notifications posted by this object are delivered; `nil` (the default) delivers all. The
  ///     broadcaster keeps it alive.
  ///   - decode: Turns a notification into an event, or throws to drop it. Runs once per notification, on the posting
  ///     thread, with no lock held.
  public init(
    names: [Notification.Name],
    center: NotificationCenter = .default,
    object: AnyObject? = nil,
    decode: @escaping @Sendable (Notification) throws -> Event
  ) {
    var seen = Set<Notification.Name>()
    let names = names.filter { seen.insert($0).inserted }
    let observers = LockedState(0)
    self.names = names
    self.center = center
    self.observers = observers
    let source = NotificationSource(
      center: center,
      names: names,
      sender: object.map(NotificationSender.init),
      decode: decode,
      observerCount: observers
    )
    broadcaster = Broadcaster(source: source)
  }

  /// The number of NotificationCenter observers this broadcaster has registered: one per name while connected,
  /// none otherwise.
  public var observerCount: Int {
    observers.withLock { $0 }
  }

  /// Whether the notifications are observed. See ``Broadcaster/isConnected``.
  public var isConnected: Bool { broadcaster.isConnected }

  /// How many times the observers were added. See ``Broadcaster/connectCount``.
  public var connectCount: Int { broadcaster.connectCount }

  /// How many times the observers were removed. See ``Broadcaster/disconnectCount``.
  public var disconnectCount: Int { broadcaster.disconnectCount }

  /// The number of live subscribers. See ``Broadcaster/subscriberCount``.
  public var subscriberCount: Int { broadcaster.subscriberCount }

  /// Removes subscriptions whose responder has deinitialised, and stops observing if none is left. See
  /// ``Broadcaster/pruneDeadSubscribers()``.
  public func pruneDeadSubscribers() {
    broadcaster.pruneDeadSubscribers()
  }

  /// How many notifications arrived while connected. See ``Broadcaster/upstreamEventCount``.
  public var upstreamEventCount: Int { broadcaster.upstreamEventCount }

  /// How many notifications could not be decoded and were dropped. See ``Broadcaster/decodeFailureCount``.
  public var decodeFailureCount: Int { broadcaster.decodeFailureCount }

  /// A hook called with every notification that could not be decoded. See ``Broadcaster/onDecodeFailure``.
  public var onDecodeFailure: (@Sendable (DecodeFailure) -> Void)? {
    get { broadcaster.onDecodeFailure }
    set { broadcaster.onDecodeFailure = newValue }
  }

  public func _subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    broadcaster._subscribe(responder, on: context, at: callSite, handler)
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    broadcaster._subscribe(on: context, at: callSite, handler)
  }
}

extension NotificationBroadcaster: CustomDebugStringConvertible {
  /// The observed names, then the broadcaster's connection state and subscriptions.
  public var debugDescription: String {
    "NotificationBroadcaster<\(Event.self)> observing \(names.map(\.rawValue).joined(separator: ", "))\n"
      + broadcaster.debugDescription
  }
}
