extension Output {
  /// A subscription delivered on a queue or the main actor, through its lane: responder-owned (the responder held
  /// weakly) or token-owned (its token's target).
  ///
  /// The lane's block reaches it through four methods: ``responderToHold()``, ``receive(_:heldResponder:)``,
  /// ``receiveHoldingNothing(_:)`` and ``receive(_:)``. Methods, not stored properties: the block's code runs unspecialised, and reading a stored
  /// property of this generic class from outside it would look its metadata up at run time, hundreds of
  /// instructions, where a method finds it through `self`.
  @usableFromInline
  final class QueuedEntry: EventEntry, SubscriptionTarget {
    /// The lane of its queue, shared with the output's other subscribers there.
    @usableFromInline let lane: DeliveryLane<Event>
    /// The responder, for a responder-owned subscription; `nil` for a token-owned one (``hasResponder``).
    weak let responder: AnyObject?
    let hasResponder: Bool
    /// The handler, called with the responder (the entry itself for a token-owned subscription, which ignores it) and
    /// the event. The event is `inout` so that the lane hands it over in place, borrowed, not copied for each
    /// subscriber; nothing changes it. The responder is not optional: wrapping the lane's borrowed reference in an
    /// optional would retain and release it, through its side table, for each delivery.
    private let handler: @Sendable (AnyObject, inout Event) -> Void
    /// Non-zero once cancelled, set from any thread, read by the lane's block with no lock.
    private let cancelled = AtomicWord()
    /// Weak: the output owns its entries, and a strong reference back would keep an abandoned output alive.
    private weak var output: Output?
    /// Told how many events the lane's policy dropped before the next one it delivers (a bounded lane's only entry).
    private let onLag: (@Sendable (Int) -> Void)?

    /// A token-owned subscription on `lane`.
    init(
      handler: @escaping @Sendable (Event) -> Void, lane: DeliveryLane<Event>, onLag: (@Sendable (Int) -> Void)?,
      output: Output
    ) {
      self.lane = lane
      self.onLag = onLag
      responder = nil
      hasResponder = false
      self.handler = { _, event in handler(event) }  // called with the entry, which it ignores
      self.output = output
      super.init(route: lane.runsInlineOnMainQueue ? .main : .queue)
    }

    /// A responder-owned subscription on `lane`.
    init<Responder: AnyObject & Sendable>(
      _ responder: Responder, handler: @escaping @Sendable (Responder, Event) -> Void, lane: DeliveryLane<Event>,
      onLag: (@Sendable (Int) -> Void)?, output: Output
    ) {
      self.lane = lane
      self.onLag = onLag
      self.responder = responder
      hasResponder = true
      self.handler = LaneBuffer.handler(forgettingTypeOf: Responder.self, handler)
      self.output = output
      super.init(route: lane.runsInlineOnMainQueue ? .main : .queue)
    }

    /// The responder a lane's run holds for the entry: `nil` for a token-owned entry or a cancelled one, and for one
    /// whose responder deinitialised, which then cancels itself.
    func responderToHold() -> AnyObject? {
      guard hasResponder, cancelled.load() == 0 else { return nil }
      guard let responder else {
        cancel()
        return nil
      }
      return responder
    }

    /// Delivers `event`, from a lane's run that holds `heldResponder`, the entry's responder (see
    /// ``responderToHold()``), unless the entry was cancelled meanwhile.
    @inline(__always)
    func receive(_ event: inout Event, heldResponder: AnyObject) {
      guard cancelled.load() == 0 else { return }
      handler(heldResponder, &event)
    }

    /// Delivers `event`, from a lane's run that holds nothing for the entry: a token-owned subscription receives it,
    /// unless cancelled meanwhile; a responder-owned one was cancelled or found deinitialised when the run began.
    func receiveHoldingNothing(_ event: inout Event) {
      guard !hasResponder, cancelled.load() == 0 else { return }
      handler(self, &event)
    }

    /// Delivers `event`, from a lane's block, with a weak load of the responder, unless the entry was cancelled
    /// meanwhile.
    func receive(_ event: inout Event) {
      guard cancelled.load() == 0 else { return }
      guard hasResponder else { return handler(self, &event) }
      // Once the responder's deinit has begun, the weak reference reads nil (G4), and nothing can ever be delivered
      // again.
      guard let responder else { return cancel() }
      handler(responder, &event)
    }

    override func deliver(_ event: Event) -> Bool {
      var event = event
      guard hasResponder else {
        handler(self, &event)
        return true
      }
      // Once the responder's deinit has begun, the weak reference reads nil (G4).
      guard let responder else { return false }
      handler(responder, &event)
      return true
    }

    override func receiveReplayed(_ event: Event) -> Bool {
      lane.take(event, entries: [self], offsets: [0]) ? true : deliver(event)
    }

    /// Tells the subscriber, from its lane's block, that its policy dropped `missed` events since the last one it
    /// received, unless it was cancelled meanwhile.
    func receiveLag(_ missed: Int) {
      guard cancelled.load() == 0 else { return }
      onLag?(missed)
    }

    /// Events waiting for the subscriber in its lane, or in the block's hands. A lane shared by unbounded subscribers
    /// counts its events once for all of them.
    var waitingCount: Int { lane.waitingCount }

    /// Events the subscriber's buffering policy dropped.
    var droppedCount: Int { lane.droppedCount }

    /// Refuses the events its lane still holds for it, and any later.
    func close() {
      cancelled.store(1)
    }

    /// Ends the subscription: its token's `cancel()`, or the lane's when it found the responder deinitialised.
    func cancel() {
      output?.storage.remove(self)
      close()
    }

    var entryOwner: (any EntryOwner)? { output }

    var subscriptionDescription: String {
      "\(targetDescription) (\(contextDescription)): \(waitingCount) waiting, \(droppedCount) dropped"
    }

    override var isTargetAlive: Bool { !hasResponder || responder != nil }

    override var targetDescription: String { hasResponder ? Output.describe(responder: responder) : "handler" }

    override var contextDescription: String { lane.contextDescription }
  }
}

// The lane, the handler and the flag are immutable and `Sendable`; the responder and the output are weak references.
extension Output.QueuedEntry: @unchecked Sendable {}
