extension Output {
  /// A responder-owned subscription's entry, delivered on a queue or the main actor, through its lane.
  final class QueuedResponderEntry: EventEntry {
    weak let responder: AnyObject?
    /// Called only with `responder`, so the responder it is given is always of the type it was written for. Runs a
    /// `.main` delivery inline, when the sender is on the main queue.
    let handler: @Sendable (AnyObject, Event) -> Void
    private let lane: DeliveryLane<Event>
    /// Non-zero once cancelled, set from any thread, read by the lane's block with no lock.
    private let cancelled = AtomicWord()
    /// Weak: the output owns its entries, and a strong reference back would keep an abandoned output alive.
    private weak var output: Output?
    /// The handler as the lane calls it (see "A lane handler" in `Output+Lanes.swift`).
    private let laneHandler: @Sendable (AnyObject, inout Event) -> Void

    init<Responder: AnyObject & Sendable>(
      _ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void, lane: DeliveryLane<Event>,
      output: Output
    ) {
      self.responder = responder
      self.handler = Output.erasingResponderType(of: handler)
      // Called only with this entry's responder, so the downcast always holds.
      laneHandler = { responder, event in handler(unsafeDowncast(responder, to: Responder.self), event) }
      self.lane = lane
      self.output = output
      super.init(route: .queued)
    }

    override func deliver(_ event: Event) -> Bool {
      // Once the responder's deinit has begun, the weak reference reads nil (G4).
      guard let responder else { return false }
      handler(responder, event)
      return true
    }

    override func receive(_ event: Event) -> Bool {
      lane.receive(event, alone: self)
    }

    override func receive(_ event: Event, in round: RoundEntries, holder: borrowing DeliveryHolder) -> Bool {
      lane.receive(event, for: self, in: round, holder: holder)
    }

    override func isIn(_ lane: DeliveryLane<Event>) -> Bool { lane === self.lane }

    override func receiveQueued(_ event: UnsafeMutableRawPointer) {
      guard cancelled.load() == 0 else { return }
      // Once the responder's deinit has begun, the weak reference reads nil (G4), and nothing can ever be delivered
      // again.
      guard let responder else { return cancel() }
      laneHandler(responder, &event.assumingMemoryBound(to: Event.self).pointee)
    }

    override func holdQueued(at slot: UnsafeMutablePointer<AnyObject?>) {
      guard cancelled.load() == 0 else { return slot.initialize(to: nil) }
      let responder = self.responder
      slot.initialize(to: responder)
      if responder == nil {
        cancel()
      }
    }

    override func receiveQueued(_ event: UnsafeMutableRawPointer, held: UnsafeMutablePointer<AnyObject?>) {
      guard cancelled.load() == 0, let responder = UnsafeRawPointer(held).load(as: UnsafeRawPointer?.self) else {
        return
      }
      // The run's reference is the last: the responder's owners let it go, and without the run it would be
      // deinitialising, its weak reference nil (G4). It goes now, its deinit run here as a weak load's release would.
      guard !isKnownUniquelyReferenced(&held.pointee) else {
        held.pointee = nil
        return cancel()
      }
      let event = event.assumingMemoryBound(to: Event.self)
      Unmanaged<AnyObject>.fromOpaque(responder)._withUnsafeGuaranteedRef { laneHandler($0, &event.pointee) }
    }

    override var isTargetAlive: Bool { responder != nil }

    override var targetDescription: String { Output.describe(responder: responder) }

    override var contextDescription: String { lane.contextDescription }

    override func close() {
      cancelled.store(1)
    }

    override func cancel() {
      output?.remove(self)
      close()
    }
  }
}

// The handlers, the lane and the flag are immutable and `Sendable`; the responder and the output are weak references,
// safe to read from any thread; the rest is the base entry's.
extension Output.QueuedResponderEntry: @unchecked Sendable {}
