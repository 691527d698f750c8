extension EventStream {
  /// Delivers each event transformed by `transform`.
  ///
  /// ```swift
  /// viewModel.output.map(\.title).removeDuplicates().subscribe(label) { label, title in label.text = title }
  /// ```
  ///
  /// Operators add nothing between the output and the handler but the transform itself: each subscription to the
  /// result is one subscription to the output, with the same context, lifetime and guarantees.
  public func map<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Event) -> Transformed
  ) -> MappedEvents<Self, Transformed> {
    MappedEvents(upstream: self) { transform($0) }
  }

  /// Delivers the non-`nil` results of `transform`.
  public func compactMap<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Event) -> Transformed?
  ) -> MappedEvents<Self, Transformed> {
    MappedEvents(upstream: self, transform: transform)
  }

  /// Delivers only the events for which `isIncluded` returns `true`.
  public func filter(_ isIncluded: @escaping @Sendable (Event) -> Bool) -> MappedEvents<Self, Event> {
    MappedEvents(upstream: self) { isIncluded($0) ? $0 : nil }
  }
}

extension EventStream where Event: Equatable {
  /// Delivers an event only when it differs from the previous one this subscriber received.
  ///
  /// Each subscription remembers its own previous event.
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

  @discardableResult
  public func subscribe<Responder: AnyObject>(
    _ responder: Responder,
    on context: DeliveryContext,
    at location: SourceLocation,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    let transform = transform
    return upstream.subscribe(responder, on: context, at: location) { responder, event in
      if let transformed = transform(event) {
        handler(responder, transformed)
      }
    }
  }

  public func subscribe(
    on context: DeliveryContext,
    at location: SourceLocation,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> Subscription {
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
  public typealias Event = Upstream.Event
  private let upstream: Upstream

  init(upstream: Upstream) {
    self.upstream = upstream
  }

  @discardableResult
  public func subscribe<Responder: AnyObject>(
    _ responder: Responder,
    on context: DeliveryContext,
    at location: SourceLocation,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    let previous = LockedState<Event?>(nil)
    return upstream.subscribe(responder, on: context, at: location) { responder, event in
      if previous.isNew(event) {
        handler(responder, event)
      }
    }
  }

  public func subscribe(
    on context: DeliveryContext,
    at location: SourceLocation,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> Subscription {
    let previous = LockedState<Event?>(nil)
    return upstream.subscribe(on: context, at: location) { event in
      if previous.isNew(event) {
        handler(event)
      }
    }
  }
}

extension LockedState {
  /// Records `event` as the latest; `true` when it differs from the one before.
  ///
  /// The output already delivers one event at a time to a subscriber, but from whichever thread delivers; the lock
  /// makes the hand-over between those threads explicit.
  fileprivate func isNew<Event: Equatable>(_ event: Event) -> Bool where State == Event? {
    withLock { previous in
      defer { previous = event }
      return previous != event
    }
  }
}
