import Dispatch

extension Output {
  /// One subscription. Lives in the output's `entries` and is the target of the handle given to the subscriber.
  ///
  /// Kept small on purpose (Bench's `memory` scenario): bookkeeping here, the handler and the responder in the
  /// subclass, a mailbox only for queued delivery.
  @usableFromInline
  class Entry: DeliveryMember, SubscriptionTarget {
    /// Weak: the output owns its entries, and a strong reference back would keep an abandoned output alive.
    final weak var output: Output?
    /// `nil` for `.immediate` delivery.
    @usableFromInline final let mailbox: Mailbox<Event>?
    final let location: CallSite

    /// Hands `event` to the subscriber in a round: to the handler now, or to the mailbox for queued delivery, unless
    /// the entry is skipped for this round. Returns `false` when the responder was found deinitialised (and marks
    /// the entry dead).
    ///
    /// Called by the inlined delivery loop, once per subscriber; each subclass does all of it in one call, compiled
    /// here for the exclusivity reason given on `DeliveryMember`.
    @usableFromInline
    func deliverInRound(_ event: Event) -> Bool { false }

    init(output: Output, context: DeliveryContext, location: CallSite) {
      self.output = output
      self.location = location
      switch context.kind {
      case .immediate:
        mailbox = nil
      case .mainActor:
        mailbox = Mailbox(queue: .main, runsInlineOnMainThread: true)
      case .queue(let queue):
        mailbox = Mailbox(queue: queue, runsInlineOnMainThread: false)
      }
      super.init()
      LiveObjects.created("Output.Entry", for: Event.self)
    }

    deinit {
      LiveObjects.destroyed("Output.Entry", for: Event.self)
    }

    /// Delivers `event` now on this thread. Returns `false` when the target is gone for good.
    ///
    /// The base entry has no target; subclasses deliver to a handler or a responder.
    @usableFromInline
    func deliver(_ event: Event) -> Bool { false }

    /// Whether anything can still receive events (a responder entry's responder is alive).
    var isTargetAlive: Bool { false }

    /// The target, for `debugDescription`.
    var targetDescription: String { "nothing" }

    /// Hands `event` to the delivery context. Returns `false` when the target is gone for good.
    @inlinable @inline(__always)
    final func receive(_ event: Event) -> Bool {
      guard let mailbox else { return deliver(event) }
      mailbox.enqueue(event, for: self)
      return true
    }

    final var contextDescription: String {
      guard let mailbox else { return "immediate" }
      return mailbox.queue === DispatchQueue.main ? "main" : "queue \(mailbox.queue.label)"
    }

    final func cancel() {
      output?.remove(self)
      mailbox?.cancel()
    }
  }

  /// A token-owned subscription's entry.
  final class HandlerEntry: Entry {
    private let handler: @Sendable (Event) -> Void

    init(
      handler: @escaping @Sendable (Event) -> Void,
      output: Output,
      context: DeliveryContext,
      location: CallSite
    ) {
      self.handler = handler
      super.init(output: output, context: context, location: location)
    }

    override func deliver(_ event: Event) -> Bool {
      handler(event)
      return true
    }

    override func deliverInRound(_ event: Event) -> Bool {
      guard !isSkipped else { return true }
      if let mailbox {
        mailbox.enqueue(event, for: self)
      } else {
        handler(event)
      }
      return true
    }

    // A handler lives until its token cancels it, which also removes the entry.
    override var isTargetAlive: Bool { true }

    override var targetDescription: String { "handler" }
  }

  /// A responder-owned subscription's entry: holds the responder weakly.
  final class ResponderEntry<Responder: AnyObject>: Entry {
    private weak var responder: Responder?
    private let handler: @Sendable (Responder, Event) -> Void

    init(
      _ responder: Responder,
      handler: @escaping @Sendable (Responder, Event) -> Void,
      output: Output,
      context: DeliveryContext,
      location: CallSite
    ) {
      self.responder = responder
      self.handler = handler
      super.init(output: output, context: context, location: location)
    }

    override func deliver(_ event: Event) -> Bool {
      // Once the responder's deinit has begun, the weak reference reads nil (G4).
      guard let responder else { return false }
      handler(responder, event)
      return true
    }

    override func deliverInRound(_ event: Event) -> Bool {
      guard !isSkipped else { return true }
      if let mailbox {
        mailbox.enqueue(event, for: self)
        return true
      }
      guard let responder else {
        isDead = true
        return false
      }
      handler(responder, event)
      return true
    }

    override var isTargetAlive: Bool { responder != nil }

    override var targetDescription: String { "responder \(Responder.self)" }
  }
}

// The round's bookkeeping is `DeliveryMember`'s. The rest is immutable, or a weak reference (which the runtime makes
// safe to read from any thread).
extension Output.Entry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`; the rest is the base entry's.
extension Output.HandlerEntry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`; the responder is a weak reference, safe to read from any thread. The
// responder itself is handed to the handler on the delivery context the subscriber chose.
extension Output.ResponderEntry: @unchecked Sendable {}
