import EventBus
import Foundation

/// Observes a set of notification names on one center: one observer per name, one decode per notification.
struct NotificationSource<Event: Sendable>: EventSource {
  /// The observer tokens of one connection.
  struct Observers {
    let tokens: [any NSObjectProtocol]
  }

  let center: NotificationCenter
  let names: [Notification.Name]
  let sender: NotificationSender?
  let decode: @Sendable (Notification) throws -> Event
  /// Observers currently registered by this source, counted where they are added and removed.
  let observerCount: LockedState<Int>

  func start(emitting sink: EventSink<Event>) -> Observers {
    let decode = decode
    let tokens = names.map { name in
      center.addObserver(forName: name, object: sender?.object, queue: nil) { notification in
        let event: Event
        do {
          event = try decode(notification)
        } catch {
          sink.reportFailure(DecodeFailure(describing: error, name: notification.name.rawValue))
          return
        }
        sink.send(event)
      }
    }
    observerCount.withLock { $0 += tokens.count }
    return Observers(tokens: tokens)
  }

  func stop(_ observers: Observers) {
    for token in observers.tokens {
      center.removeObserver(token)
    }
    observerCount.withLock { $0 -= observers.tokens.count }
  }
}

/// The `object` a notification broadcaster filters on.
struct NotificationSender {
  let object: AnyObject
}

// The tokens are opaque: they are only handed back to `NotificationCenter.removeObserver(_:)`, which is thread-safe.
extension NotificationSource.Observers: @unchecked Sendable {}

// The object is never read or mutated here: it is only handed to NotificationCenter as an identity filter.
extension NotificationSender: @unchecked Sendable {}

extension DecodeFailure {
  /// A failure report for `error`, thrown while decoding a notification called `name`.
  init(describing error: any Error, name: String) {
    if var failure = error as? DecodeFailure {
      failure.name = failure.name ?? name
      self = failure
    } else {
      self.init(name: name, reason: .other(String(describing: error)))
    }
  }
}
