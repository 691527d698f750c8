#if compiler(>=6.2)
  import EventBus
  import Foundation

  /// What the two typed-message sources share: adding their observer to the center on connect, removing it on
  /// disconnect, counting it, and sending each message's decoded event, or its decode failure, to the sink.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  struct MessageObservation<Event: Sendable>: Sendable {
    let center: NotificationCenter
    private let addObserver: @Sendable (EventSink<Event>) -> NotificationCenter.ObservationToken
    /// Observers currently registered by this observation and its copies, counted where they are added and removed.
    private let observers = LockedState(0)

    init(
      center: NotificationCenter,
      addObserver: @escaping @Sendable (EventSink<Event>) -> NotificationCenter.ObservationToken
    ) {
      self.center = center
      self.addObserver = addObserver
    }

    var observerCount: Int {
      observers.withLock { $0 }
    }

    func start(emitting sink: EventSink<Event>) -> NotificationCenter.ObservationToken {
      let token = addObserver(sink)
      observers.withLock { $0 += 1 }
      return token
    }

    func stop(_ token: NotificationCenter.ObservationToken) {
      center.removeObserver(token)
      observers.withLock { $0 -= 1 }
    }

    /// Sends `message` decoded, or reports the failure with the message type's name and sends nothing.
    static func send<Message>(
      _ message: Message, decodedBy decode: (Message) throws -> Event, to sink: EventSink<Event>
    ) {
      let event: Event
      do {
        event = try decode(message)
      } catch {
        sink.reportFailure(DecodeFailure(describing: error, name: String(describing: Message.self)))
        return
      }
      sink.send(event)
    }
  }
#endif
