#if compiler(>=6.2)
  import EventBus
  import Foundation

  /// One typed main-actor message of NotificationCenter, for a ``Broadcaster``: one `addObserver(of:for:)` while
  /// connected, and one decode per message, whatever the number of subscribers.
  ///
  /// ```swift
  /// let expiries = Broadcaster(source: MainActorMessageSource(of: session, for: .sessionDidExpire))
  /// expiries.subscribe(accountScreen, on: .main) { screen, message in screen.signOut(reason: message.reason) }
  /// expiries.subscribe(banner, on: .main) { banner, message in banner.show(message.reason) }  // same observer
  /// ```
  ///
  /// The center calls its observer on the main actor, inside `post(_:subject:)`, and the broadcaster fans the message
  /// out there: a subscription `on: .main` runs before `post` returns, in the order of subscription, and so does an
  /// immediate one. A message whose decode throws is not delivered: it is counted in
  /// ``Broadcaster/decodeFailureCount`` and reported to ``Broadcaster/onDecodeFailure`` with the message type's name.
  ///
  /// Copies of a source share their ``observerCount``.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  public struct MainActorMessageSource<Event: Sendable>: EventSource {
    /// The observation of one connection; only ``MainActorMessageSource/stop(_:)`` reads it.
    public struct Connection: Sendable {
      fileprivate let token: NotificationCenter.ObservationToken
    }

    private let observation: MessageObservation<Event>

    /// The observed notification center.
    public var center: NotificationCenter { observation.center }

    /// Creates a source for the messages `identifier` names about `subject`. Nothing is observed until a broadcaster
    /// starts it.
    ///
    /// - Parameters:
    ///   - subject: Only messages posted with this subject are delivered. The source keeps it alive.
    ///   - identifier: The message, as `addObserver(of:for:)` names it: `.sessionDidExpire`.
    ///   - center: The notification center; `.default` by default.
    ///   - decode: Turns a message into an event, or throws to drop it. Runs once per message, on the main actor.
    public init<Identifier: NotificationCenter.MessageIdentifier & Sendable, Message>(
      of subject: Message.Subject,
      for identifier: Identifier,
      center: NotificationCenter = .default,
      decode: @escaping @MainActor (Message) throws -> Event
    )
    where Identifier.MessageType == Message, Message: NotificationCenter.MainActorMessage, Message.Subject: AnyObject {
      let subject = NotificationSender(object: subject)
      observation = MessageObservation(center: center) { sink in
        center.addObserver(of: subject.object, for: identifier) { message in
          sink.send(decoding: message, named: String(describing: Message.self), with: decode)
        }
      }
    }

    /// Creates a source for the messages `identifier` names about any subject of type `subject` (`Session.self`);
    /// otherwise as `init(of:for:center:decode:)` with a subject.
    public init<Identifier: NotificationCenter.MessageIdentifier & Sendable, Message>(
      of subject: Message.Subject.Type,
      for identifier: Identifier,
      center: NotificationCenter = .default,
      decode: @escaping @MainActor (Message) throws -> Event
    ) where Identifier.MessageType == Message, Message: NotificationCenter.MainActorMessage {
      observation = MessageObservation(center: center) { sink in
        center.addObserver(of: Message.Subject.self, for: identifier) { message in
          sink.send(decoding: message, named: String(describing: Message.self), with: decode)
        }
      }
    }

    /// The number of observers this source has added to the center: one while a broadcaster is connected to it, none
    /// otherwise.
    public var observerCount: Int {
      observation.observerCount
    }

    public func start(emitting sink: EventSink<Event>) -> Connection {
      Connection(token: observation.start(emitting: sink))
    }

    public func stop(_ connection: Connection) {
      observation.stop(connection.token)
    }
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  extension MainActorMessageSource where Event: NotificationCenter.MainActorMessage {
    /// Creates a source that delivers the messages `identifier` names about `subject` as they are, undecoded.
    public init<Identifier: NotificationCenter.MessageIdentifier & Sendable>(
      of subject: Event.Subject,
      for identifier: Identifier,
      center: NotificationCenter = .default
    ) where Identifier.MessageType == Event, Event.Subject: AnyObject {
      self.init(of: subject, for: identifier, center: center) { $0 }
    }

    /// Creates a source that delivers the messages `identifier` names about any subject of type `subject` as they
    /// are, undecoded.
    public init<Identifier: NotificationCenter.MessageIdentifier & Sendable>(
      of subject: Event.Subject.Type,
      for identifier: Identifier,
      center: NotificationCenter = .default
    ) where Identifier.MessageType == Event {
      self.init(of: subject, for: identifier, center: center) { $0 }
    }
  }
#endif
