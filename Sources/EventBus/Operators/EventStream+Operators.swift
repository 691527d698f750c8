extension EventStream {
  /// Delivers each event transformed by `transform`.
  ///
  /// ```swift
  /// viewModel.output.map(\.title).removeDuplicates().subscribe(label) { label, title in label.text = title }
  /// ```
  ///
  /// Operators add nothing between the output and the handler but the transform itself: each subscription to the
  /// result is one subscription to the output, with the same context, lifetime and guarantees.
  ///
  /// - Parameter transform: Called once per event and subscriber, on the subscriber's delivery context.
  /// - Returns: A stream of the transformed events.
  public func map<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Event) -> Transformed
  ) -> MappedEvents<Self, Transformed> {
    MappedEvents(upstream: self) { transform($0) }
  }

  /// Delivers the non-`nil` results of `transform`.
  ///
  /// ```swift
  /// let errors = viewModel.output.compactMap { event -> String? in
  ///   if case .failed(let message) = event { return message } else { return nil }
  /// }
  /// ```
  ///
  /// - Parameter transform: Called once per event and subscriber; `nil` drops the event.
  /// - Returns: A stream of the non-`nil` results.
  public func compactMap<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Event) -> Transformed?
  ) -> MappedEvents<Self, Transformed> {
    MappedEvents(upstream: self, transform: transform)
  }

  /// Delivers only the events for which `isIncluded` returns `true`.
  ///
  /// - Parameter isIncluded: Called once per event and subscriber.
  /// - Returns: A stream of the events that pass.
  public func filter(_ isIncluded: @escaping @Sendable (Event) -> Bool) -> MappedEvents<Self, Event> {
    MappedEvents(upstream: self) { isIncluded($0) ? $0 : nil }
  }
}

extension EventStream where Event: Equatable {
  /// Delivers an event only when it differs from the previous one this subscriber received.
  ///
  /// Each subscription remembers its own previous event.
  ///
  /// - Returns: A stream without consecutive repeats.
  public func removeDuplicates() -> DistinctEvents<Self> {
    DistinctEvents(upstream: self)
  }
}

/// The result of ``EventStream/map(_:)``, ``EventStream/compactMap(_:)`` and ``EventStream/filter(_:)``.
public struct MappedEvents<Upstream: EventStream, Event: Sendable>: EventStream {
  private let upstream: Upstream
  private let transform: @Sendable (Upstream.Event) -> Event?

  init(upstream: Upstream, transform: @escaping @Sendable (Upstream.Event) -> Event?) {
    self.upstream = upstream
    self.transform = transform
  }

  public func _subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    let transform = transform
    // A named function, not a closure: a debugger shows the operator's frame by what it does.
    @Sendable func deliverIfTransformed(_ responder: Responder, _ event: Upstream.Event) {
      if let transformed = transform(event) {
        handler(responder, transformed)
      }
    }
    return upstream._subscribe(responder, on: context, at: callSite, deliverIfTransformed)
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    let transform = transform
    @Sendable func deliverIfTransformed(_ event: Upstream.Event) {
      if let transformed = transform(event) {
        handler(transformed)
      }
    }
    return upstream._subscribe(on: context, at: callSite, deliverIfTransformed)
  }
}

/// The result of ``EventStream/removeDuplicates()``.
public struct DistinctEvents<Upstream: EventStream>: EventStream where Upstream.Event: Equatable {
  /// The upstream's events: the operator only drops repeats.
  public typealias Event = Upstream.Event
  private let upstream: Upstream

  init(upstream: Upstream) {
    self.upstream = upstream
  }

  // Each subscription keeps its previous event behind a lock: the output delivers one event at a time to a
  // subscriber, but from whichever thread delivers, and the lock makes the hand-over explicit. Only the swap happens
  // under it: the handler compares (the event's `==`) and releases the previous event (its `deinit`) after it.

  public func _subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    let previous = LockedState<Event?>(nil)
    @Sendable func deliverIfChanged(_ responder: Responder, _ event: Event) {
      let replaced = previous.exchange(event)
      if replaced != event {
        handler(responder, event)
      }
      _ = replaced  // released here, after the handler and with no lock held: its deinit is user code
    }
    return upstream._subscribe(responder, on: context, at: callSite, deliverIfChanged)
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    let previous = LockedState<Event?>(nil)
    @Sendable func deliverIfChanged(_ event: Event) {
      let replaced = previous.exchange(event)
      if replaced != event {
        handler(event)
      }
      _ = replaced  // released here, after the handler and with no lock held: its deinit is user code
    }
    return upstream._subscribe(on: context, at: callSite, deliverIfChanged)
  }
}
