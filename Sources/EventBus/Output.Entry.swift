import Dispatch

extension Output {
  /// One subscription. Lives in the output's `entries` and is the target of the handle given to the subscriber.
  ///
  /// Kept small on purpose (Bench's `memory` scenario): bookkeeping here, the handler and the responder in the
  /// subclass, a mailbox only for queued delivery.
  @usableFromInline
  class Entry: SubscriptionTarget {
    /// Weak: the output owns its entries, and a strong reference back would keep an abandoned output alive.
    final weak var output: Output?
    /// `nil` for `.immediate` delivery.
    @usableFromInline final let mailbox: Mailbox<Event>?
    final let location: CallSite
    /// Position in the output's subscriber list. Guarded by the output's lock. 32 bits keep the entry 8 bytes
    /// smaller.
    @usableFromInline final var slot: Int32 = 0
    /// Guarded by the output's lock.
    @usableFromInline final var isRemoved = false
    /// Cancelled by a handler on the delivering thread: skip for the rest of the round. Read and written only by
    /// the thread that holds the delivery; the next delivering thread takes over through the output's lock.
    final var isSkipped = false
    /// The responder was found deinitialised during delivery. Same confinement as `isSkipped`.
    final var isDead = false

    // `isSkipped` and `isDead` stay internal, read and written only by code compiled in this module: whole-module
    // optimisation then proves their accesses exclusive and removes the runtime's dynamic exclusivity checks from the
    // delivery loop (70 instructions a delivery). Inlinable code and the state machine reach them through these
    // accessors.
    @usableFromInline
    final var wasFoundDead: Bool { isDead }

    @usableFromInline
    final var isSkippedForRound: Bool {
      get { isSkipped }
      set { isSkipped = newValue }
    }

    /// Hands `event` to the delivery context unless the entry is skipped for this round. Returns `false` when the
    /// responder was found deinitialised (and marks the entry dead).
    ///
    /// Called by the inlined delivery loop; compiled here, for the exclusivity reason above.
    @usableFromInline
    final func deliverUnlessSkipped(_ event: Event) -> Bool {
      guard !isSkipped else { return true }
      if receive(event) { return true }
      isDead = true
      return false
    }

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

    override var isTargetAlive: Bool { responder != nil }

    override var targetDescription: String { "responder \(Responder.self)" }
  }
}

// `slot` and `isRemoved` are guarded by the output's lock. `isSkipped` and `isDead` are confined to the thread
// that holds the output's delivery, and handed from one delivering thread to the next through that lock. The rest
// is immutable, or a weak reference (which the runtime makes safe to read from any thread).
extension Output.Entry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`; the rest is the base entry's.
extension Output.HandlerEntry: @unchecked Sendable {}

// The handler is immutable and `@Sendable`; the responder is a weak reference, safe to read from any thread. The
// responder itself is handed to the handler on the delivery context the subscriber chose.
extension Output.ResponderEntry: @unchecked Sendable {}

extension Output.Entry: DeliveryMember {}
