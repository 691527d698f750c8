extension EventHub {
  /// The events of one type on a bus, as an ``EventStream``: what ``EventHub/events(of:)`` returns.
  ///
  /// Everything that takes an event stream takes it: operators, ``EventObserver``, ``EventRecorder``, `values`.
  ///
  /// ```swift
  /// let observer = EventObserver(bus.events(of: UserSignedIn.self), responder: screen) { screen, event in
  ///   screen.showWelcome(event.id)
  /// }
  /// ```
  ///
  /// Each subscription goes to the bus's channel for `Event`, created on demand and released after its last
  /// subscription ends.
  public struct Events<Event: Sendable>: EventStream {
    private let bus: EventHub

    init(bus: EventHub) {
      self.bus = bus
    }

    /// The number of live subscribers of `Event` on the bus. Creates nothing.
    public var subscriberCount: Int { bus.subscriberCount(for: Event.self) }

    public func _subscribe<Responder: AnyObject & Sendable>(
      _ responder: Responder,
      on context: DeliveryContext,
      at callSite: CallSite,
      _ handler: @escaping @Sendable (Responder, Event) -> Void
    ) -> ResponderSubscription {
      bus.withChannel(for: Event.self) { output in
        output._subscribe(responder, on: context, at: callSite, handler)
      }
    }

    public func _subscribe(
      on context: DeliveryContext,
      at callSite: CallSite,
      _ handler: @escaping @Sendable (Event) -> Void
    ) -> EventSubscription {
      bus.withChannel(for: Event.self) { output in
        output._subscribe(on: context, at: callSite, handler)
      }
    }
  }
}
