extension Output {
  /// A token-owned subscription's entry, delivered on a queue or the main actor, through its lane.
  final class QueuedHandlerEntry: EventEntry {
    let handler: @Sendable (Event) -> Void
    /// The handler as the lane calls it (see "A lane handler" in `Output+Lanes.swift`).
    private let laneHandler: @Sendable (inout Event) -> Void
    private let lane: DeliveryLane<Event>
    /// Non-zero once cancelled, set from any thread, read by the lane's block with no lock.
    private let cancelled = AtomicWord()
    /// Weak: a token kept after its output is gone must not keep the output alive.
    private weak var output: Output?

    init(handler: @escaping @Sendable (Event) -> Void, output: Output, lane: DeliveryLane<Event>) {
      self.handler = handler
      laneHandler = { event in handler(event) }
      self.lane = lane
      self.output = output
      super.init(route: .queued)
    }

    override func deliver(_ event: Event) -> Bool {
      handler(event)
      return true
    }

    override func receive(_ event: Event) -> Bool {
      lane.receive(event, alone: self)
    }

    override func receive(_ event: Event, in round: RoundEntries, holder: borrowing DeliveryHolder) -> Bool {
      lane.receive(event, for: self, in: round, holder: holder)
    }

    override func receiveQueued(_ event: UnsafeMutableRawPointer) {
      // A handler stays until its token cancels it.
      guard cancelled.load() == 0 else { return }
      laneHandler(&event.assumingMemoryBound(to: Event.self).pointee)
    }

    override func isIn(_ lane: DeliveryLane<Event>) -> Bool { lane === self.lane }

    // A handler lives until its token cancels it, which also removes the entry.
    override var isTargetAlive: Bool { true }

    override var targetDescription: String { "handler" }

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

// The handlers, the lane and the flag are immutable and `Sendable`, the output a weak reference set once; the rest is
// the base entry's.
extension Output.QueuedHandlerEntry: @unchecked Sendable {}
