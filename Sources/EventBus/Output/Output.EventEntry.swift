/// How the delivery loop hands an event to an entry: what its class is, so the loop can call the handler itself
/// instead of making a virtual call into the entry first.
@usableFromInline
enum EntryRoute: UInt8 {
  /// A responder-owned subscription delivered immediately (`Output.ResponderEntry`), through a virtual call: the
  /// entry is generic over its responder's type.
  case responder
  /// A token-owned subscription delivered immediately (`Output.HandlerEntry`).
  case handler
  /// A subscription delivered on a queue or the main actor: through the entry's `receive`, to its lane.
  case queued
}

extension Output {
  /// One subscription in the output's list, with what depends on the event type.
  ///
  /// Two levels, and every leaf final: this class, with what every entry has, and one final class per kind of
  /// subscription, each passing its own route: ``ResponderEntry`` and ``HandlerEntry`` delivered immediately,
  /// `QueuedResponderEntry` and `QueuedHandlerEntry` through a lane (`Output/Queued/`).
  ///
  /// Kept small on purpose (Bench's `memory` scenario): a responder entry is 56 bytes, a 64-byte heap allocation. It
  /// holds the round's bookkeeping and its call site's number (`Entry`), its route, and in the leaf the handler and
  /// the responder. What only some subscriptions need lives elsewhere: a responder entry's way back to the output,
  /// which `cancel()` needs, in the handle given to the subscriber (`SubscriptionHandle`); a lane only in the entries
  /// of queued delivery. A handler entry keeps the way back itself, in room its allocation has anyway, and is its
  /// token's target: a token-owned subscription is then two small objects, the token and the entry.
  @usableFromInline
  class EventEntry: Entry {
    /// What the delivery loop does with the entry. Immutable, so inlinable code reads it with no exclusivity check.
    @usableFromInline
    final let route: EntryRoute

    init(route: EntryRoute) {
      self.route = route
      super.init()
      LiveObjects.created("Output.Entry", for: Event.self, object: ObjectIdentifier(self))
    }

    deinit {
      LiveObjects.destroyed("Output.Entry", for: Event.self, object: ObjectIdentifier(self))
    }

    /// Delivers `event` now on this thread. Returns `false` when the target is gone for good.
    ///
    /// The base entry has no target; subclasses deliver to a handler or a responder.
    @usableFromInline
    func deliver(_ event: Event) -> Bool { false }

    /// Hands `event`, of a replay window, to the delivery context: delivers it now, or queues it for this entry
    /// alone. Returns `false` when the target is gone for good.
    func receive(_ event: Event) -> Bool { deliver(event) }

    /// Hands `event`, of the current round over `round`'s list, to the delivery context: delivers it now, or has the
    /// lane queue it once for all of the lane's entries. Returns `false` when the target is gone for good. The
    /// delivery loop calls it for entries of route `.queued` only.
    @usableFromInline
    func receive(_ event: Event, in round: RoundEntries, holder: borrowing DeliveryHolder) -> Bool { deliver(event) }

    /// Whether the entry is delivered through `lane`.
    func isIn(_ lane: DeliveryLane<Event>) -> Bool { false }

    /// Whether anything can still receive events (a responder entry's responder is alive).
    var isTargetAlive: Bool { false }

    /// The target, for `debugDescription`.
    var targetDescription: String { "nothing" }

    /// The delivery context, for `debugDescription`.
    var contextDescription: String { "immediate" }

    // `cancel()` is the target's: it ends the subscription. A handler entry is its token's target; a queued responder
    // entry cancels itself when its lane finds the responder deinitialised. An immediate responder entry is ended
    // through its handle, which knows the output, and has nothing to end itself.
  }

  /// A token-owned subscription's entry, delivered immediately.
  @usableFromInline
  final class HandlerEntry: EventEntry {
    @usableFromInline
    let handler: @Sendable (Event) -> Void
    /// Weak: a token kept after its output is gone must not keep the output alive.
    private weak var output: Output?

    init(handler: @escaping @Sendable (Event) -> Void, output: Output) {
      self.handler = handler
      self.output = output
      super.init(route: .handler)
    }

    override func cancel() {
      output?.remove(self)
    }

    override func deliver(_ event: Event) -> Bool {
      handler(event)
      return true
    }

    // A handler lives until its token cancels it, which also removes the entry.
    override var isTargetAlive: Bool { true }

    override var targetDescription: String { "handler" }
  }

  /// A responder-owned subscription's entry, delivered immediately: holds the responder weakly.
  ///
  /// Generic over the responder's type, so it keeps the handler as it was written, with no wrapper to allocate: the
  /// delivery loop, which knows only the event type, reaches it through ``EventEntry/deliver(_:)``.
  final class ResponderEntry<Responder: AnyObject & Sendable>: EventEntry {
    weak let responder: Responder?
    let handler: @Sendable (Responder, Event) -> Void

    init(_ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void) {
      self.responder = responder
      self.handler = handler
      super.init(route: .responder)
    }

    override func deliver(_ event: Event) -> Bool {
      // Once the responder's deinit has begun, the weak reference reads nil (G4).
      guard let responder else { return false }
      handler(responder, event)
      return true
    }

    override var isTargetAlive: Bool { responder != nil }

    override var targetDescription: String { Output.describe(responder: responder) }
  }

  /// An ``EventResponder``'s subscription delivered immediately: holds the responder weakly, and calls its
  /// `handle(event:)` itself.
  ///
  /// No handler closure stands between the entry and the responder, so a debugger stopped in `handle(event:)` shows
  /// named frames only, `send`, the delivery loop, this entry and the protocol witness, and the entry is 16 bytes
  /// smaller than a ``ResponderEntry``.
  final class EventResponderEntry<Responder: EventResponder>: EventEntry where Responder.Event == Event {
    weak let responder: Responder?

    init(_ responder: Responder) {
      self.responder = responder
      super.init(route: .responder)
    }

    override func deliver(_ event: Event) -> Bool {
      // Once the responder's deinit has begun, the weak reference reads nil (G4).
      guard let responder else { return false }
      responder.handle(event: event)
      return true
    }

    override var isTargetAlive: Bool { responder != nil }

    override var targetDescription: String { Output.describe(responder: responder) }
  }

  /// A responder entry's target, for `debugDescription`.
  static func describe(responder: (some AnyObject)?) -> String {
    responder.map { "responder \(type(of: $0))" } ?? "responder (deinitialised)"
  }

  /// `handler` with the responder's type forgotten, so that the delivery loop, which knows only the event type, can
  /// call it. It is called only with the entry's own responder, so the downcast always holds.
  static func erasingResponderType<Responder: AnyObject & Sendable>(
    of handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> @Sendable (AnyObject, Event) -> Void {
    { responder, event in handler(unsafeDowncast(responder, to: Responder.self), event) }
  }

  /// The entry for `responder` and `handler`, delivered in `context`.
  func responderEntry<Responder: AnyObject & Sendable>(
    _ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void, context: DeliveryContext
  ) -> EventEntry {
    // Immediate delivery is decided before the lane type is named: on this unspecialised path, naming a generic
    // type costs a run-time metadata lookup.
    if case .immediate = context.kind {
      return ResponderEntry(responder, handler: handler)
    }
    return QueuedResponderEntry(responder, handler: handler, lane: lane(for: context), output: self)
  }

  /// The entry for a token-owned `handler`, delivered in `context`.
  func handlerEntry(_ handler: @escaping @Sendable (Event) -> Void, context: DeliveryContext) -> EventEntry {
    if case .immediate = context.kind {
      return HandlerEntry(handler: handler, output: self)
    }
    return QueuedHandlerEntry(handler: handler, output: self, lane: lane(for: context))
  }
}

// The bookkeeping is the base entry's.
extension Output.EventEntry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`, the output a weak reference set once; the rest is the base entry's.
extension Output.HandlerEntry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`; the responder is a weak reference, safe to read from any thread, to a
// `Sendable` responder. Unchecked only because the base entry is.
extension Output.ResponderEntry: @unchecked Sendable {}

// As a responder entry, with no handler.
extension Output.EventResponderEntry: @unchecked Sendable {}
