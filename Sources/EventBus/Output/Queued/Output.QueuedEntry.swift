import Dispatch

extension Output {
  /// A token-owned subscription's entry, delivered on a queue or the main actor, through its lane.
  final class QueuedHandlerEntry: HandlerEntry {
    private let lane: DeliveryLane<Event>
    /// Non-zero once cancelled, set from any thread, read by the lane's block with no lock.
    private let cancelled = AtomicWord()
    /// The handler as the lane calls it (see "A lane handler" below).
    private let laneHandler: @Sendable (inout Event) -> Void

    init(handler: @escaping @Sendable (Event) -> Void, output: Output, lane: DeliveryLane<Event>) {
      self.lane = lane
      laneHandler = { event in handler(event) }
      super.init(handler: handler, output: output, route: .queued)
    }

    override func receive(_ event: Event) -> Bool {
      lane.receive(event, alone: self)
    }

    override func receive(_ event: Event, in round: RoundEntries) -> Bool {
      lane.receive(event, for: self, in: round)
    }

    override func receiveQueued(_ event: UnsafeMutableRawPointer) {
      // A handler stays until its token cancels it.
      guard cancelled.load() == 0 else { return }
      laneHandler(&event.assumingMemoryBound(to: Event.self).pointee)
    }

    override func isIn(_ lane: DeliveryLane<Event>) -> Bool { lane === self.lane }

    override var contextDescription: String { lane.contextDescription }

    override func close() {
      cancelled.store(1)
    }
  }

  /// A responder-owned subscription's entry, delivered on a queue or the main actor, through its lane.
  final class QueuedResponderEntry: ResponderEntry {
    private let lane: DeliveryLane<Event>
    /// Non-zero once cancelled, set from any thread, read by the lane's block with no lock.
    private let cancelled = AtomicWord()
    /// Weak: the output owns its entries, and a strong reference back would keep an abandoned output alive.
    private weak var output: Output?
    /// The handler as the lane calls it (see "A lane handler" below); `handler`, the base entry's, runs `.main` inline.
    private let laneHandler: @Sendable (AnyObject, inout Event) -> Void

    init<Responder: AnyObject & Sendable>(
      _ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void, lane: DeliveryLane<Event>,
      output: Output
    ) {
      self.lane = lane
      self.output = output
      // Called only with this entry's responder, so the downcast always holds.
      laneHandler = { responder, event in handler(unsafeDowncast(responder, to: Responder.self), event) }
      super.init(responder, erasedHandler: Output.erasingResponderType(of: handler), route: .queued)
    }

    override func receive(_ event: Event) -> Bool {
      lane.receive(event, alone: self)
    }

    override func receive(_ event: Event, in round: RoundEntries) -> Bool {
      lane.receive(event, for: self, in: round)
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

    override var contextDescription: String { lane.contextDescription }

    override func close() {
      cancelled.store(1)
    }

    override func cancel() {
      output?.remove(self)
      close()
    }
  }

  // A lane handler: a queued entry's handler as its lane calls it, with the event `inout`. The event waits in the
  // lane's storage and every entry of the lane reads it there; passed by value from a pointer, it would be copied for
  // each subscriber first (a value-witness copy and destroy, in this unspecialised code), passed `inout` it is
  // borrowed in place. Nothing changes it: the lane handler only passes it on to the subscriber's handler, by value.

  /// The lane for `context`: one per queue and kind of context, shared by the output's subscribers there.
  ///
  /// The output keeps its lanes weakly: the entries keep them, and a lane whose entries are gone goes too, and with it
  /// its queue. Reading a weak reference under the lock may release a lane; a lane that nobody else holds has nothing
  /// waiting (a waiting item keeps a block, which keeps the lane) and so no user object to release.
  ///
  /// A `.queue(_:)` lane is found by the identity of its `DispatchQueue` object. The main actor's is found by its kind:
  /// on Linux every read of `DispatchQueue.main` makes a new object for the same queue.
  func lane(for context: DeliveryContext) -> DeliveryLane<Event> {
    let queue: DispatchQueue? =
      switch context.kind {
      case .immediate, .mainActor: nil
      case .queue(let queue): queue
      }
    return state.withLock { state in
      state.lanes.removeAll { $0.lane == nil }
      if let lane = state.lanes.lazy.compactMap(\.lane).first(where: { lane in
        queue.map { !lane.runsInlineOnMainQueue && lane.queue === $0 } ?? lane.runsInlineOnMainQueue
      }) {
        return lane
      }
      let lane = DeliveryLane<Event>(queue: queue ?? .main, runsInlineOnMainQueue: queue == nil)
      state.lanes.append(WeakLane(lane: lane))
      return lane
    }
  }

  struct WeakLane: @unchecked Sendable {
    // A weak reference to a `Sendable` lane, read under the output's lock.
    weak var lane: DeliveryLane<Event>?
  }
}

// The lane and the flag are immutable and `Sendable`; the rest is the handler entry's.
extension Output.QueuedHandlerEntry: @unchecked Sendable {}

// The lane and the flag are immutable and `Sendable`, the output a weak reference; the rest is the responder entry's.
extension Output.QueuedResponderEntry: @unchecked Sendable {}
