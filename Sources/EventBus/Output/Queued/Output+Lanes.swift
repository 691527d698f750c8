import Dispatch

extension Output {
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
