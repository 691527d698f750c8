import Dispatch

/// The main queue as `.main` delivery sees it: whether the caller is on it, and a `@MainActor` handler made callable
/// from the lane that runs it there.
enum MainQueue {
  /// Whether the calling code runs on the main queue: ``isOnMainQueue()``, which the lane asks itself.
  static var isCurrent: Bool { isOnMainQueue() }
}

extension MainQueue {
  /// `handler`, callable from code that is not isolated to the main actor.
  ///
  /// For the handlers of `.main` subscriptions, which the library calls only on the main queue, the main actor's
  /// executor: from its lane's block there, or inline when a send finds itself there (``isCurrent``), and which every
  /// stream's `_subscribe` must call in the context it was given. Debug builds check that promise on every call, next
  /// to the call, and trap where it is broken.
  ///
  /// The one reinterpretation in the library (``reinterpret(_:as:)``): `MainActor.assumeIsolated`, the checked way,
  /// costs about 200 ns a call on Linux, several times a delivery. A synchronous function isolated to a global actor
  /// is called exactly as a nonisolated one, so only the type changes.
  static func uncheckedHandler<Responder: AnyObject & Sendable, Event: Sendable>(
    _ handler: @escaping @MainActor (Responder, Event) -> Void
  ) -> @Sendable (Responder, Event) -> Void {
    let stored = MainActorResponderHandler(call: handler)
    let call = reinterpret(stored, as: SendableResponderHandler<Responder, Event>.self).call
    #if DEBUG
      return { responder, event in
        precondition(isCurrent, "EventBus: a .main handler was called off the main queue")
        call(responder, event)
      }
    #else
      return call
    #endif
  }

  /// `uncheckedHandler(_:)` for a token-owned handler.
  static func uncheckedHandler<Event: Sendable>(
    _ handler: @escaping @MainActor (Event) -> Void
  ) -> @Sendable (Event) -> Void {
    let call = reinterpret(MainActorHandler(call: handler), as: SendableHandler<Event>.self).call
    #if DEBUG
      return { event in
        precondition(isCurrent, "EventBus: a .main handler was called off the main queue")
        call(event)
      }
    #else
      return call
    #endif
  }

  /// `value` as a `Target`: a struct holding the same closure with another isolation. Checks that both have the same
  /// layout; `MainQueueHandlerTests` check it for every shape of event, and CI runs them under AddressSanitizer.
  ///
  /// Each pair of handler types differs only in isolation, so a value of one is a valid value of the other, and each
  /// pair of structs is generic alike, so their closures are stored alike. Reinterpreting a struct copies the
  /// closure's two words. Reinterpreting the function value itself would not: passed to `unsafeBitCast` as a generic
  /// value, it is converted to the most general form and back, through two reabstraction thunks that every delivery
  /// would run.
  static func reinterpret<Source, Target>(_ value: Source, as _: Target.Type) -> Target {
    precondition(
      MemoryLayout<Source>.size == MemoryLayout<Target>.size
        && MemoryLayout<Source>.alignment == MemoryLayout<Target>.alignment
        && MemoryLayout<Source>.size == 2 * MemoryLayout<UnsafeRawPointer>.size,
      "EventBus: a handler's layout changed; this toolchain stores closures differently")
    return unsafeBitCast(value, to: Target.self)
  }

  struct MainActorResponderHandler<Responder: AnyObject & Sendable, Event: Sendable> {
    let call: @MainActor (Responder, Event) -> Void
  }

  struct SendableResponderHandler<Responder: AnyObject & Sendable, Event: Sendable> {
    let call: @Sendable (Responder, Event) -> Void
  }

  struct MainActorHandler<Event: Sendable> {
    let call: @MainActor (Event) -> Void
  }

  struct SendableHandler<Event: Sendable> {
    let call: @Sendable (Event) -> Void
  }
}
