import Dispatch

extension Output {
  /// A token-owned subscription's entry, delivered on a queue or the main actor, through its lane.
  final class QueuedHandlerEntry: HandlerEntry {
    private let lane: DeliveryLane<Event>
    private let cancelled = OnceFlag()

    init(handler: @escaping @Sendable (Event) -> Void, output: Output, lane: DeliveryLane<Event>) {
      self.lane = lane
      super.init(handler: handler, output: output, route: .queued)
    }

    override func receive(_ event: Event) -> Bool {
      lane.receive(event, alone: self)
    }

    override func receive(_ event: Event, in round: RoundEntries) -> Bool {
      lane.receive(event, for: self, in: round)
    }

    override func receiveQueued(_ event: UnsafeRawPointer) {
      // A handler stays until its token cancels it.
      guard !cancelled.isSet else { return }
      unsafeBitCast(StoredTokenHandler(call: handler), to: BorrowingTokenHandler.self).call(event)
    }

    override func isIn(_ lane: DeliveryLane<Event>) -> Bool { lane === self.lane }

    override var contextDescription: String { lane.contextDescription }

    override func close() {
      cancelled.set()
    }
  }

  /// A responder-owned subscription's entry, delivered on a queue or the main actor, through its lane.
  final class QueuedResponderEntry: ResponderEntry {
    private let lane: DeliveryLane<Event>
    private let cancelled = OnceFlag()
    /// Weak: the output owns its entries, and a strong reference back would keep an abandoned output alive.
    private weak var output: Output?
    /// The handler, as the lane calls it: with the event's address. A stored value of its own, read in place: made
    /// from `handler` for each call, it would be a copy, a retain and a release of the handler's context each time.
    private let borrowingHandler: BorrowingHandler

    init<Responder: AnyObject & Sendable>(
      _ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void, lane: DeliveryLane<Event>,
      output: Output
    ) {
      self.lane = lane
      self.output = output
      let erased = ResponderHandler(handler).erased
      borrowingHandler = unsafeBitCast(StoredHandler(call: erased), to: BorrowingHandler.self)
      super.init(responder, erasedHandler: erased, route: .queued)
    }

    override func receive(_ event: Event) -> Bool {
      lane.receive(event, alone: self)
    }

    override func receive(_ event: Event, in round: RoundEntries) -> Bool {
      lane.receive(event, for: self, in: round)
    }

    override func isIn(_ lane: DeliveryLane<Event>) -> Bool { lane === self.lane }

    override func receiveQueued(_ event: UnsafeRawPointer) {
      guard !cancelled.isSet else { return }
      // Once the responder's deinit has begun, the weak reference reads nil (G4), and nothing can ever be delivered
      // again. The event is borrowed where it waits, not copied.
      guard let responder else { return cancel() }
      borrowingHandler.call(responder, event)
    }

    override func holdQueued(at slot: UnsafeMutablePointer<AnyObject?>) {
      guard !cancelled.isSet else { return slot.initialize(to: nil) }
      let responder = self.responder
      slot.initialize(to: responder)
      if responder == nil {
        cancel()
      }
    }

    override func receiveQueued(_ event: UnsafeRawPointer, held: UnsafeMutablePointer<AnyObject?>) {
      guard !cancelled.isSet, let responder = UnsafeRawPointer(held).load(as: UnsafeRawPointer?.self) else { return }
      // The run's reference is the last: the responder's owners let it go, and without the run it would be
      // deinitialising, its weak reference nil (G4). It goes now, its deinit run here as a weak load's release would.
      guard !isKnownUniquelyReferenced(&held.pointee) else {
        held.pointee = nil
        return cancel()
      }
      Unmanaged<AnyObject>.fromOpaque(responder)._withUnsafeGuaranteedRef { borrowingHandler.call($0, event) }
    }

    override var contextDescription: String { lane.contextDescription }

    override func close() {
      cancelled.set()
    }

    override func cancel() {
      output?.remove(self)
      close()
    }
  }

  /// A responder entry's handler as it is stored: in a generic class, so the event, of a type parameter, is passed
  /// indirectly, by its address.
  private struct StoredHandler {
    let call: @Sendable (AnyObject, Event) -> Void
  }

  /// The same handler, called with the event's address itself. An event waiting in a lane is delivered where it
  /// waits: through `StoredHandler`, reading it from its address would copy it first (a value witness call to copy,
  /// another to destroy, in this unspecialised code), since the handler must see a value nothing changes while it
  /// runs. Nothing does: the event is the lane's until every entry has had it. Both closures are two words, and an
  /// indirect argument is passed as its address, in the register a pointer argument takes.
  private struct BorrowingHandler {
    let call: @Sendable (AnyObject, UnsafeRawPointer) -> Void
  }

  /// A token-owned entry's handler as it is stored, and called with the event's address; as `StoredHandler`.
  private struct StoredTokenHandler {
    let call: @Sendable (Event) -> Void
  }

  private struct BorrowingTokenHandler {
    let call: @Sendable (UnsafeRawPointer) -> Void
  }

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
