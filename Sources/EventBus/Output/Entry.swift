/// How a round hands an event to an entry.
@usableFromInline
enum EntryRoute: UInt8 {
  /// A responder-owned subscription delivered immediately (`Output.ResponderEntry`, `Output.EventResponderEntry`),
  /// through a virtual call: the entry is generic over its responder's type.
  case responder
  /// A token-owned subscription delivered immediately (`Output.HandlerEntry`): the round calls its handler itself.
  case handler
  /// A subscription delivered on a `DispatchQueue` (`Output.QueuedEntry`): its lane takes the event for it.
  case queue
  /// A subscription delivered on the main actor (`Output.QueuedEntry`): its lane takes the event for it, or, when the
  /// send runs on the main queue with nothing waiting, the round delivers it inline.
  case main
}

/// One subscription in an output's list, as the list sees it: its slot, whether it was removed, where it subscribed,
/// and its route.
///
/// The base of every entry, and not generic: the list's code then needs no generic metadata at run time. A subscribe
/// or a cancel runs unspecialised (the caller's event type is unknown in this module), and there each lookup of a
/// generic type's metadata costs about 300 instructions, a third of a subscribe-and-cancel cycle. ``Output/EventEntry``
/// adds what depends on the event type; every entry is one of its final subclasses. Two levels, no more.
///
/// `slot`, `isRemoved` and `callSite` are read and written only under the owner's lock.
@usableFromInline
class Entry {
  /// Position in the subscriber list. 32 bits keep every subscriber 8 bytes smaller.
  final var slot: Int32 = 0
  /// Removed from the list: cancelled, or found dead.
  final var isRemoved = false
  /// Where it subscribed, numbered in the list's `CallSiteTable`. Set under the owner's lock, then immutable.
  final var callSite: CallSiteTable.ID = 0
  /// What the round does with the entry. Immutable, so inlinable code reads it with no exclusivity check.
  @usableFromInline final let route: EntryRoute

  init(route: EntryRoute) {
    self.route = route
  }

  /// Whether anything can still receive events (a responder entry's responder is alive). Every final entry class
  /// answers for its target; this class has none.
  var isTargetAlive: Bool { false }

  /// The target, for `debugDescription`.
  var targetDescription: String { "nothing" }

  /// The delivery context, for `debugDescription`.
  var contextDescription: String { "immediate" }
}

// `slot`, `isRemoved` and `callSite` are guarded by the owner's lock; `route` is immutable.
extension Entry: @unchecked Sendable {}

extension Output {
  /// One subscription in the output's list, with what depends on the event type: one final class per kind of
  /// subscription, each passing its own route.
  ///
  /// Kept small on purpose (Bench's `memory` scenario): a responder entry is 48 bytes. What only some subscriptions
  /// need lives elsewhere: a responder entry's way back to the output, which `cancel()` needs, in the handle given to
  /// the subscriber (`SubscriptionHandle`); a lane only in ``QueuedEntry``. A handler entry keeps the way back itself
  /// and is its token's target: a token-owned subscription is then two small objects, the token and the entry.
  @usableFromInline
  class EventEntry: Entry {
    override init(route: EntryRoute) {
      super.init(route: route)
      LiveObjects.created("Output.Entry", for: Event.self, object: ObjectIdentifier(self))
    }

    deinit {
      LiveObjects.destroyed("Output.Entry", for: Event.self, object: ObjectIdentifier(self))
    }

    /// Delivers `event` now, on this thread. Returns `false` when the target is gone for good. Every final subclass
    /// delivers to its handler or responder; this class has no target.
    @usableFromInline
    func deliver(_ event: Event) -> Bool { false }

    /// Hands `event`, of a replay window, to the entry alone, in its delivery context. Returns `false` when the target
    /// is gone for good.
    func receiveReplayed(_ event: Event) -> Bool { deliver(event) }
  }

  /// A token-owned subscription's entry, delivered immediately; its token's target.
  @usableFromInline
  final class HandlerEntry: EventEntry, SubscriptionTarget {
    @usableFromInline let handler: @Sendable (Event) -> Void
    /// Weak: a token kept after its output is gone must not keep the output alive.
    private weak var output: Output?

    init(handler: @escaping @Sendable (Event) -> Void, output: Output) {
      self.handler = handler
      self.output = output
      super.init(route: .handler)
    }

    func cancel() {
      output?.storage.remove(self)
    }

    var entryOwner: (any EntryOwner)? { output }

    var subscriptionDescription: String { "handler (immediate)" }

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
  /// round, which knows only the event type, reaches it through ``EventEntry/deliver(_:)``.
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
  /// named frames only, `send`, the round, this entry and the protocol witness, and the entry is 16 bytes smaller than
  /// a ``ResponderEntry``.
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
}

// The handler is immutable and `@Sendable`, the output a weak reference set once; the rest is the base entry's.
extension Output.EventEntry: @unchecked Sendable {}
extension Output.HandlerEntry: @unchecked Sendable {}
// The handler is immutable and `@Sendable`; the responder is a weak reference, safe to read from any thread, to a
// `Sendable` responder. Unchecked only because the base entry is.
extension Output.ResponderEntry: @unchecked Sendable {}
extension Output.EventResponderEntry: @unchecked Sendable {}
