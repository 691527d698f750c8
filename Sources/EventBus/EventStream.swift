/// Something you can subscribe to: an ``Output``, its read-only view, an operator over either, a hub's events of one
/// type, or a broadcaster.
///
/// You subscribe with one family of methods, each with an optional delivery context:
/// - `subscribe(responder) { responder, event in … }`: **responder-owned**. Holds the responder weakly, ends by itself
///   when the responder deinitialises, and returns a discardable ``ResponderSubscription``.
/// - `subscribe(responder)`, for an ``EventResponder`` (or a ``MainActorEventResponder``): the same, calling its
///   `handle(event:)`.
/// - `subscribe(actor) { actor, event in … }`, for an actor: the same, with a handler isolated to the actor.
/// - `subscribe { event in … }`: **token-owned**. Returns an ``EventSubscription`` that you must keep; releasing it
///   ends the subscription. The compiler warns when the result is unused, and a debug build when the token is
///   released at once.
///
/// ``subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)`` documents the parameters they share.
///
/// A handler that may run on another thread than the one that subscribed (the default `.immediate` context when
/// events are sent from several threads, or `.queue(_:)`) receives its responder there, so the responder must be
/// `Sendable`. A `@MainActor` responder subscribes with `on: .main` and an `@MainActor` handler (G12 in Runtime
/// Behavior).
///
/// The underscored requirements are the customisation points the `subscribe` methods call; you never call them.
/// To make a type of your own an event stream, forward them to a stream it wraps (the one for an ``EventResponder``
/// has a default, which forwards through the other two).
public protocol EventStream<Event>: Sendable {
  /// The events this stream delivers.
  associatedtype Event: Sendable

  /// Subscribes `responder`, held weakly, until it deinitialises or the subscription is cancelled. The customisation
  /// point behind every responder-owned `subscribe`; call those instead.
  ///
  /// - Parameters:
  ///   - responder: The object that receives events. Never retained.
  ///   - context: Where `handler` runs.
  ///   - callSite: Where the subscription was made, for `debugDescription`.
  ///   - handler: Called with the responder and each event.
  /// - Returns: A handle that can end the subscription early. Dropping it does not end the subscription.
  /// - Complexity: O(1) amortised, plus O(*r*) to hand over *r* replayed events.
  func _subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription

  /// Subscribes `handler` until the returned token is cancelled or released. The customisation point behind every
  /// token-owned `subscribe`; call those instead.
  ///
  /// - Parameters:
  ///   - context: Where `handler` runs.
  ///   - callSite: Where the subscription was made, for `debugDescription`.
  ///   - handler: Called with each event.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(1) amortised, plus O(*r*) to hand over *r* replayed events.
  func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription

  /// Subscribes an ``EventResponder``, held weakly, whose `handle(event:)` receives each event. The customisation
  /// point behind `subscribe(responder)`; call that instead.
  ///
  /// The default calls ``_subscribe(_:on:at:_:)`` with a handler that calls `handle(event:)`. ``Output``
  /// implements it to call `handle(event:)` with no closure in between, which keeps a debugger's stack short; a stream
  /// that wraps another forwards it.
  func _subscribe<Responder: EventResponder>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite
  ) -> ResponderSubscription where Responder.Event == Event
}

extension EventStream {
  public func _subscribe<Responder: EventResponder>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite
  ) -> ResponderSubscription where Responder.Event == Event {
    _subscribe(responder, on: context, at: callSite, handleEvent)
  }
}

extension EventStream {
  /// Subscribes `responder`, held weakly; the handler receives it and each event.
  ///
  /// ```swift
  /// viewModel.output.subscribe(self) { view, event in view.handle(event: event) }
  /// ```
  ///
  /// The subscription ends by itself when `responder` deinitialises: once its `deinit` has begun the handler is never
  /// called again.
  ///
  /// This is the primary form: the other `subscribe` methods, which ``EventStream`` lists, document only what differs.
  ///
  /// - Parameters:
  ///   - responder: The object that receives events. Never retained.
  ///   - context: Where `handler` runs: on the thread that delivers (`.immediate`, the default) or on a queue of yours
  ///     (`.queue(_:)`). A main-actor handler takes `on: .main` instead (G11).
  ///   - fileID: The file of the call. Every subscribing method takes it and `line` for `debugDescription` and the
  ///     debug-build warnings; leave the defaults.
  ///   - line: The line of the call.
  ///   - handler: Called with the responder and each event, in the order they were sent.
  /// - Returns: A handle that can end the subscription early. Dropping it does not end the subscription.
  /// - Complexity: O(1) amortised, plus O(*r*) to hand over *r* replayed events.
  @discardableResult
  public func subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    _subscribe(responder, on: context, at: CallSite(fileID: fileID, line: line), handler)
  }

  /// Subscribes `handler`, token-owned: until the returned ``EventSubscription`` is cancelled or released, so keep it.
  /// Otherwise as ``subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)``.
  public func subscribe(
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    subscribeToken(on: context, at: CallSite(fileID: fileID, line: line), handler)
  }

  /// Subscribes an ``EventResponder``, held weakly: its `handle(event:)` receives each event. Otherwise as
  /// ``subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)``.
  @discardableResult
  public func subscribe<Responder: EventResponder>(
    _ responder: Responder,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event == Event {
    _subscribe(responder, on: context, at: CallSite(fileID: fileID, line: line))
  }

  /// Subscribes `responder`, held weakly, with a `@MainActor` handler that runs on the main actor. Otherwise as
  /// ``subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)``.
  @discardableResult
  public func subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor (Responder, Event) -> Void
  ) -> ResponderSubscription {
    _subscribe(
      responder, on: context.deliveryContext, at: CallSite(fileID: fileID, line: line),
      MainQueue.uncheckedHandler(handler))
  }

  /// Subscribes `handler` on the main actor, token-owned: until the returned ``EventSubscription`` is cancelled or
  /// released. Otherwise as ``subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)``.
  public func subscribe(
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor (Event) -> Void
  ) -> EventSubscription {
    subscribeToken(
      on: context.deliveryContext, at: CallSite(fileID: fileID, line: line),
      MainQueue.uncheckedHandler(handler))
  }

  /// Subscribes a ``MainActorEventResponder``, held weakly: its `handle(event:)` runs on the main actor. Otherwise as
  /// ``subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)``.
  @discardableResult
  public func subscribe<Responder: MainActorEventResponder>(
    _ responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event == Event {
    subscribe(responder, on: .main, fileID: fileID, line: line) { responder, event in
      responder.handle(event: event)
    }
  }

  /// Subscribes a ``MainActorEventResponder`` on `.main`, spelled out: the same as `subscribe(responder)`.
  @discardableResult
  public func subscribe<Responder: MainActorEventResponder>(
    _ responder: Responder,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event == Event {
    subscribe(responder, on: context, fileID: fileID, line: line) { responder, event in
      responder.handle(event: event)
    }
  }
}

extension EventStream {
  /// Unavailable: a ``MainActorEventResponder`` handles events on the main actor, so it is subscribed with
  /// `subscribe(responder)` or `subscribe(responder, on: .main)`, never on `.immediate` or a queue, `.queue(.main)`
  /// included.
  @available(
    *, unavailable,
    message:
      "a MainActorEventResponder runs on the main actor: write subscribe(responder) or subscribe(responder, on: .main)"
  )
  @discardableResult
  public func subscribe<Responder: MainActorEventResponder>(
    _ responder: Responder,
    on context: DeliveryContext,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event == Event {
    subscribe(responder, fileID: fileID, line: line)
  }
}

extension EventStream {
  /// `_subscribe(on:at:_:)`, and in debug builds a watch on the token that warns when it is released at once, before
  /// its handler could run (`EarlyReleaseCheck`).
  func subscribeToken(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    #if DEBUG
      let check = EarlyReleaseCheck(callSite: callSite)
      // A named function, not a closure: a debugger shows this frame by what it does.
      @Sendable func noteDeliveryAndHandle(_ event: Event) {
        check.noteDelivery()
        handler(event)
      }
      let subscription = _subscribe(on: context, at: callSite, noteDeliveryAndHandle)
      subscription.earlyReleaseCheck = check
      return subscription
    #else
      return _subscribe(on: context, at: callSite, handler)
    #endif
  }
}

// A function rather than a closure: a closure here would capture the responder's metatype, which is not Sendable.
@Sendable
func handleEvent<Responder: EventResponder>(_ responder: Responder, _ event: Responder.Event) {
  responder.handle(event: event)
}
