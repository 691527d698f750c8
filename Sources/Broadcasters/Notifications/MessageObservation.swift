#if compiler(>=6.2)
  import EventBus
  import Foundation

  /// The one core of ``AsyncMessageSource`` and ``MainActorMessageSource``: adding their observer to the center on
  /// connect, removing it on disconnect, and counting it. Each source keeps only what differs with its message
  /// protocol, which Foundation `addObserver` it calls and where its decode runs, so the compiler checks both.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  struct MessageObservation<Event: Sendable>: Sendable {
    let center: NotificationCenter
    private let addObserver: @Sendable (EventSink<Event>) -> NotificationCenter.ObservationToken
    /// Observers currently registered by this observation and its copies, counted where they are added and removed.
    private let observers = LockedState(0)

    /// An observation whose `addObserver` adds one observer that decodes each message once (with
    /// `EventSink.send(decoding:named:with:)`) and returns its token.
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
  }
#endif
