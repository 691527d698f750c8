extension EventStream {
  /// Subscribes an actor, held weakly, with a handler isolated to it.
  ///
  /// ```swift
  /// actor CartStore {
  ///   private(set) var items: [Item] = []
  ///   func apply(_ event: CartEvent) { … }
  /// }
  ///
  /// output.subscribe(store) { store, event in store.apply(event) }
  /// ```
  ///
  /// The handler runs on the actor, so it reads and changes the actor's state with no lock and no `Sendable` dance.
  /// Events reach it in the order they were sent, one at a time: the subscription queues them and one task at a time
  /// hands them over, never a task per event. A handler that suspends (an `await` inside it) delays the events after
  /// it, not the sender, and not the actor's other callers.
  ///
  /// The queue has no bound: a subscriber that never keeps up makes it grow, and
  /// ``ResponderSubscription/waitingCount`` shows by how much (a debug build warns once past 100,000). The form with a
  /// `bufferingPolicy:` bounds it: the events it drops are counted (``ResponderSubscription/droppedCount``) and told to
  /// `onLag` before the next event the actor receives. Cancelling drops what waits. When the actor deinitialises, the
  /// subscription ends and what waits is dropped.
  ///
  /// - Parameters:
  ///   - responder: The actor. Never retained, except while its handler runs.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
  ///   - handler: Called on the actor with each event, in order.
  /// - Returns: A handle that can end the subscription early and shows its backlog. Dropping it does not end the
  ///   subscription.
  /// - Complexity: O(1) amortised.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) async -> Void
  ) -> ResponderSubscription {
    subscribe(responder, bufferingPolicy: .unbounded, fileID: fileID, line: line, handler)
  }

  /// Subscribes an actor, held weakly, with a handler isolated to it, keeping what `bufferingPolicy` says when the actor
  /// falls behind. Otherwise as the form without a policy, which keeps every event.
  ///
  /// ```swift
  /// output.subscribe(indexer, bufferingPolicy: .bufferingNewest(100)) { indexer, event in
  ///   await indexer.index(event)
  /// }
  /// ```
  ///
  /// The label is required, unlike a delivery context's: a defaulted parameter here would tie this method with
  /// immediate delivery's `subscribe`, and a handler isolated to the actor would no longer be told apart.
  ///
  /// - Parameters:
  ///   - responder: The actor. Never retained, except while its handler runs.
  ///   - bufferingPolicy: How many events may wait for the actor.
  ///   - onLag: Called before the next event the actor receives, on the task that hands it over, with how many events
  ///     the policy dropped since the last one.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
  ///   - handler: Called on the actor with each event it receives, in order.
  /// - Returns: A handle that can end the subscription early and shows its backlog and drops.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    bufferingPolicy: DeliveryContext.BufferingPolicy,
    onLag: (@Sendable (Int) -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) async -> Void
  ) -> ResponderSubscription {
    let callSite = CallSite(fileID: fileID, line: line)
    let mailbox = ActorMailbox(
      responder: responder, bufferingPolicy: bufferingPolicy, onLag: onLag, callSite: callSite, handler: handler)
    let upstream = _subscribe(responder, on: .immediate, at: callSite) { _, event in
      mailbox.enqueue(event)
    }
    // The stream's output keeps the mailbox weakly, for `waitUntilDelivered()` to wait for the actor too.
    upstream.entryOwner?.track(mailbox)
    return ResponderSubscription(target: ActorSubscription(upstream: upstream, mailbox: mailbox))
  }

  /// Subscribes an actor, held weakly, with a synchronous handler isolated to it; as the `async` form, which it
  /// calls.
  ///
  /// The overload exists so that a handler with no `await` in it is isolated to the actor too, rather than taken for
  /// a handler of immediate delivery, which may not touch the actor's state.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) -> Void
  ) -> ResponderSubscription {
    subscribe(responder, bufferingPolicy: .unbounded, fileID: fileID, line: line, handler)
  }

  /// Subscribes an actor, held weakly, with a synchronous handler isolated to it, keeping what `bufferingPolicy` says
  /// when the actor falls behind; as the `async` form, which it calls.
  @discardableResult
  public func subscribe<Responder: Actor>(
    _ responder: Responder,
    bufferingPolicy: DeliveryContext.BufferingPolicy,
    onLag: (@Sendable (Int) -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (isolated Responder, Event) -> Void
  ) -> ResponderSubscription {
    let isolatedHandler: @Sendable (isolated Responder, Event) async -> Void = { responder, event in
      handler(responder, event)
    }
    return subscribe(
      responder, bufferingPolicy: bufferingPolicy, onLag: onLag, fileID: fileID, line: line, isolatedHandler)
  }
}
