import Dispatch

extension Output {
  /// One subscription in the output's list.
  ///
  /// Kept small on purpose (Bench's `memory` scenario): a responder entry is 56 bytes, a 64-byte heap block. It holds
  /// the round's bookkeeping and its call site's number (`DeliveryMember`), and in the subclass the handler and the
  /// responder. What only some subscriptions need lives elsewhere: the way back to the output, which `cancel()` needs,
  /// in the handle given to the subscriber (`SubscriptionHandle`); a mailbox only in the entries of queued delivery.
  @usableFromInline
  class Entry: DeliveryMember {
    override init() {
      super.init()
      LiveObjects.created("Output.Entry", for: Event.self)
    }

    deinit {
      LiveObjects.destroyed("Output.Entry", for: Event.self)
    }

    /// Hands `event` to the subscriber in a round: to the handler now, or to the mailbox for queued delivery, unless
    /// the entry is skipped for this round. Returns `false` when the responder was found deinitialised (and marks
    /// the entry dead).
    ///
    /// Called by the inlined delivery loop, once per subscriber; each subclass does all of it in one call, compiled
    /// here for the exclusivity reason given on `DeliveryMember`.
    @usableFromInline
    func deliverInRound(_ event: Event) -> Bool { false }

    /// Delivers `event` now on this thread. Returns `false` when the target is gone for good.
    ///
    /// The base entry has no target; subclasses deliver to a handler or a responder.
    func deliver(_ event: Event) -> Bool { false }

    /// Hands `event` to the delivery context: delivers it now, or queues it in the mailbox. Returns `false` when the
    /// target is gone for good.
    func receive(_ event: Event) -> Bool { deliver(event) }

    /// Whether anything can still receive events (a responder entry's responder is alive).
    var isTargetAlive: Bool { false }

    /// The target, for `debugDescription`.
    var targetDescription: String { "nothing" }

    /// The delivery context, for `debugDescription`.
    var contextDescription: String { "immediate" }

    /// Ends the subscription from the entry's side: its mailbox found the responder deinitialised. Only an entry of
    /// queued delivery has a mailbox, and only it keeps the way back to its output for this.
    func cancel() {}
  }

  /// A token-owned subscription's entry, delivered immediately.
  class HandlerEntry: Entry {
    fileprivate let handler: @Sendable (Event) -> Void

    init(handler: @escaping @Sendable (Event) -> Void) {
      self.handler = handler
      super.init()
    }

    override final func deliver(_ event: Event) -> Bool {
      handler(event)
      return true
    }

    override func deliverInRound(_ event: Event) -> Bool {
      guard !isSkipped else { return true }
      handler(event)
      return true
    }

    // A handler lives until its token cancels it, which also removes the entry.
    override final var isTargetAlive: Bool { true }

    override final var targetDescription: String { "handler" }
  }

  /// A token-owned subscription's entry, delivered on a queue or the main actor.
  final class QueuedHandlerEntry: HandlerEntry {
    private let mailbox: Mailbox<Event>

    init(handler: @escaping @Sendable (Event) -> Void, mailbox: Mailbox<Event>) {
      self.mailbox = mailbox
      super.init(handler: handler)
    }

    override func deliverInRound(_ event: Event) -> Bool {
      guard !isSkipped else { return true }
      mailbox.enqueue(event, for: self)
      return true
    }

    override func receive(_ event: Event) -> Bool {
      mailbox.enqueue(event, for: self)
      return true
    }

    override var contextDescription: String { mailbox.contextDescription }

    override func closeMailbox() {
      mailbox.cancel()
    }
  }

  /// A responder-owned subscription's entry, delivered immediately: holds the responder weakly.
  class ResponderEntry<Responder: AnyObject & Sendable>: Entry {
    private weak var responder: Responder?
    private let handler: @Sendable (Responder, Event) -> Void

    init(_ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void) {
      self.responder = responder
      self.handler = handler
      super.init()
    }

    override final func deliver(_ event: Event) -> Bool {
      // Once the responder's deinit has begun, the weak reference reads nil (G4).
      guard let responder else { return false }
      handler(responder, event)
      return true
    }

    override func deliverInRound(_ event: Event) -> Bool {
      guard !isSkipped else { return true }
      guard let responder else {
        isDead = true
        return false
      }
      handler(responder, event)
      return true
    }

    override final var isTargetAlive: Bool { responder != nil }

    override final var targetDescription: String { "responder \(Responder.self)" }
  }

  /// A responder-owned subscription's entry, delivered on a queue or the main actor.
  final class QueuedResponderEntry<Responder: AnyObject & Sendable>: ResponderEntry<Responder> {
    private let mailbox: Mailbox<Event>
    /// Weak: the output owns its entries, and a strong reference back would keep an abandoned output alive.
    private weak var output: Output?

    init(
      _ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void, mailbox: Mailbox<Event>,
      output: Output
    ) {
      self.mailbox = mailbox
      self.output = output
      super.init(responder, handler: handler)
    }

    override func deliverInRound(_ event: Event) -> Bool {
      guard !isSkipped else { return true }
      mailbox.enqueue(event, for: self)
      return true
    }

    override func receive(_ event: Event) -> Bool {
      mailbox.enqueue(event, for: self)
      return true
    }

    override var contextDescription: String { mailbox.contextDescription }

    override func closeMailbox() {
      mailbox.cancel()
    }

    override func cancel() {
      output?.remove(self)
      mailbox.cancel()
    }
  }

  /// The entry for `responder` and `handler`, delivered in `context`.
  func responderEntry<Responder: AnyObject & Sendable>(
    _ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void, context: DeliveryContext
  ) -> Entry {
    // Immediate delivery is decided before the mailbox type is named: on this unspecialised path, naming a generic
    // type costs a run-time metadata lookup.
    if case .immediate = context.kind {
      return ResponderEntry(responder, handler: handler)
    }
    let mailbox = Mailbox<Event>(context: context)
    return QueuedResponderEntry(responder, handler: handler, mailbox: mailbox, output: self)
  }

  /// The entry for a token-owned `handler`, delivered in `context`.
  func handlerEntry(_ handler: @escaping @Sendable (Event) -> Void, context: DeliveryContext) -> Entry {
    if case .immediate = context.kind {
      return HandlerEntry(handler: handler)
    }
    return QueuedHandlerEntry(handler: handler, mailbox: Mailbox(context: context))
  }
}

// The bookkeeping is `DeliveryMember`'s.
extension Output.Entry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`; the rest is the base entry's.
extension Output.HandlerEntry: @unchecked Sendable {}

// The mailbox is immutable and `Sendable`; the rest is the handler entry's.
extension Output.QueuedHandlerEntry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`; the responder is a weak reference, safe to read from any thread, to a
// `Sendable` responder. Unchecked only because the base entry is.
extension Output.ResponderEntry: @unchecked Sendable {}

// The mailbox is immutable and `Sendable`, the output a weak reference; the rest is the responder entry's.
extension Output.QueuedResponderEntry: @unchecked Sendable {}
