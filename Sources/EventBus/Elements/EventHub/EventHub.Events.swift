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

    /// Subscribes `responder`, held weakly, to the bus's channel for `Event`, creating the channel if needed.
    ///
    /// - Parameters:
    ///   - responder: The object that receives events. Never retained.
    ///   - context: Where `handler` runs.
    ///   - location: Where the subscription was made, for `debugDescription`.
    ///   - handler: Called with the responder and each event.
    /// - Returns: A handle that can end the subscription early. Dropping it does not end the subscription.
    @discardableResult
    public func subscribe<Responder: AnyObject>(
      _ responder: Responder,
      on context: DeliveryContext,
      at location: CallSite,
      _ handler: @escaping @Sendable (Responder, Event) -> Void
    ) -> ResponderSubscription {
      bus.withChannel(for: Event.self) { output in
        output.subscribe(responder, on: context, at: location, handler)
      }
    }

    /// Subscribes `handler` to the bus's channel for `Event`, creating the channel if needed, until the returned
    /// token is cancelled or released.
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs.
    ///   - location: Where the subscription was made, for `debugDescription`.
    ///   - handler: Called with each event.
    /// - Returns: The token that keeps the subscription alive.
    public func subscribe(
      on context: DeliveryContext,
      at location: CallSite,
      _ handler: @escaping @Sendable (Event) -> Void
    ) -> EventSubscription {
      bus.withChannel(for: Event.self) { output in
        output.subscribe(on: context, at: location, handler)
      }
    }
  }
}
