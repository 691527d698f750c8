import EventBus
import Foundation

/// Notification names on one center, for a ``Broadcaster``: one observer per name while connected, and one decode per
/// notification, whatever the number of subscribers.
///
/// ```swift
/// let sessions = Broadcaster(
///   source: NotificationSource(names: [.sessionDidExpire, .sessionDidRenew]) { notification in
///     try SessionEvent(notification)          // runs once per notification, not once per subscriber
///   })
/// sessions.subscribe(accountScreen) { screen, event in screen.handle(event: event) }
/// ```
///
/// A notification whose decode throws is not delivered: it is counted in ``Broadcaster/decodeFailureCount`` and
/// reported to ``Broadcaster/onDecodeFailure`` with the notification's name; later notifications are delivered as
/// usual. Throw a ``DecodeFailure`` to say which `userInfo` key was at fault.
///
/// Handlers run on the thread that posted the notification, unless the subscription chose another delivery context.
/// Copies of a source share their ``observerCount``.
public struct NotificationSource<Event: Sendable>: EventSource {
  /// The observers of one connection, one per name; only ``NotificationSource/stop(_:)`` reads them.
  public struct Connection {
    fileprivate let tokens: [any NSObjectProtocol]
  }

  /// The observed notification names, without duplicates, in the order given.
  public let names: [Notification.Name]
  /// The observed notification center.
  public let center: NotificationCenter
  private let sender: NotificationSender<AnyObject>?
  private let decode: @Sendable (Notification) throws -> Event
  /// Observers currently registered by this source and its copies, counted where they are added and removed.
  private let observers = LockedState(0)

  /// Creates a source for notifications called `names` on `center`. Nothing is observed until a broadcaster starts it.
  ///
  /// - Parameters:
  ///   - names: The notification names to observe; one NotificationCenter observer each while connected.
  ///   - center: The notification center; `.default` by default.
  ///   - object: Only notifications posted by this object are delivered; `nil` (the default) delivers all. The
  ///     source keeps it alive.
  ///   - decode: Turns a notification into an event, or throws to drop it. Runs once per notification, on the posting
  ///     thread, with no lock held.
  public init(
    names: [Notification.Name],
    center: NotificationCenter = .default,
    object: AnyObject? = nil,
    decode: @escaping @Sendable (Notification) throws -> Event
  ) {
    var seen = Set<Notification.Name>()
    self.names = names.filter { seen.insert($0).inserted }
    self.center = center
    self.sender = object.map(NotificationSender.init)
    self.decode = decode
  }

  /// The number of NotificationCenter observers this source has registered: one per name while a broadcaster is
  /// connected to it, none otherwise.
  public var observerCount: Int {
    observers.withLock { $0 }
  }

  public func start(emitting sink: EventSink<Event>) -> Connection {
    let decode = decode
    let tokens = names.map { name in
      center.addObserver(forName: name, object: sender?.object, queue: nil) { notification in
        sink.send(decoding: notification, named: notification.name.rawValue, with: decode)
      }
    }
    observers.withLock { $0 += tokens.count }
    return Connection(tokens: tokens)
  }

  public func stop(_ connection: Connection) {
    for token in connection.tokens {
      center.removeObserver(token)
    }
    observers.withLock { $0 -= connection.tokens.count }
  }
}

/// An object a source filters on, or observes messages about: NotificationCenter only compares its identity.
struct NotificationSender<Object: AnyObject> {
  let object: Object
}

// The tokens are opaque: they are only handed back to `NotificationCenter.removeObserver(_:)`, which is thread-safe.
extension NotificationSource.Connection: @unchecked Sendable {}

// The object is never read or mutated here: it is only handed to NotificationCenter as an identity filter.
extension NotificationSender: @unchecked Sendable {}
