extension EventHub {
  /// The events of one type on a hub, as an ``EventStream``: what ``EventHub/events(of:)`` returns.
  ///
  /// Everything that takes an event stream takes it: operators, ``EventObserver``, ``EventRecorder``, `values`.
  ///
  /// ```swift
  /// let observer = EventObserver(hub.events(of: UserSignedIn.self), responder: screen) { screen, event in
  ///   screen.showWelcome(event.id)
  /// }
  /// ```
  ///
  /// Each subscription goes to the hub's channel for `Event`, created on demand and released after its last
  /// subscription ends.
  public struct Events<Event: Sendable>: EventStream {
    private let hub: EventHub

    init(hub: EventHub) {
      self.hub = hub
    }

    /// The number of live subscribers of `Event` on the hub. Creates nothing.
    public var subscriberCount: Int { hub.subscriberCount(for: Event.self) }

    public func _subscribe<Responder: AnyObject & Sendable>(
      _ responder: Responder,
      on context: DeliveryContext,
      at callSite: CallSite,
      _ handler: @escaping @Sendable (Responder, Event) -> Void
    ) -> ResponderSubscription {
      hub.withChannel(for: Event.self) { output in
        output._subscribe(responder, on: context, at: callSite, handler)
      }
    }

    public func _subscribe(
      on context: DeliveryContext,
      at callSite: CallSite,
      _ handler: @escaping @Sendable (Event) -> Void
    ) -> EventSubscription {
      hub.withChannel(for: Event.self) { output in
        output._subscribe(on: context, at: callSite, handler)
      }
    }

    public func _subscribe<Responder: EventResponder>(
      _ responder: Responder,
      on context: DeliveryContext,
      at callSite: CallSite
    ) -> ResponderSubscription where Responder.Event == Event {
      hub.withChannel(for: Event.self) { output in
        output._subscribe(responder, on: context, at: callSite)
      }
    }
  }
}
