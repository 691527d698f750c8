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

  /// Subscribes `responder` to the upstream, held weakly, and hands it the transformed events.
  ///
  /// One subscription to the upstream, with the same context and lifetime.
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
    let transform = transform
    return upstream.subscribe(responder, on: context, at: location) { responder, event in
      if let transformed = transform(event) {
        handler(responder, transformed)
      }
    }
  }

  /// Subscribes `handler` to the upstream; it receives the transformed events.
  ///
  /// One subscription to the upstream, with the same context and lifetime.
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
    let transform = transform
    return upstream.subscribe(on: context, at: location) { event in
      if let transformed = transform(event) {
        handler(transformed)
      }
    }
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

  /// Subscribes `responder` to the upstream, held weakly; it receives each event that differs from the one before.
  ///
  /// One subscription to the upstream, with the same context and lifetime, remembering its own previous event.
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
    let previous = LockedState<Event?>(nil)
    return upstream.subscribe(responder, on: context, at: location) { responder, event in
      let replaced = previous.exchange(event)
      if replaced != event {
        handler(responder, event)
      }
      _ = replaced  // released here, after the handler and with no lock held: its deinit is user code
    }
  }

  /// Subscribes `handler` to the upstream; it receives each event that differs from the one before.
  ///
  /// One subscription to the upstream, with the same context and lifetime, remembering its own previous event.
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
    let previous = LockedState<Event?>(nil)
    return upstream.subscribe(on: context, at: location) { event in
      let replaced = previous.exchange(event)
      if replaced != event {
        handler(event)
      }
      _ = replaced  // released here, after the handler and with no lock held: its deinit is user code
    }
  }
}

extension LockedState {
  /// Records `event` as the latest and returns the one it replaces.
  ///
  /// The output already delivers one event at a time to a subscriber, but from whichever thread delivers; the lock
  /// makes the hand-over between those threads explicit. Only the swap happens under the lock: the caller compares
  /// (the event's `==`) and releases the previous event (its `deinit`) after it, since both are user code (G8).
  fileprivate func exchange<Event>(_ event: Event) -> Event? where State == Event? {
    withLock { latest in
      defer { latest = event }
      return latest
    }
  }
}
