import Dispatch

extension DeliveryStorage {

  /// The lane for `context`: one per queue and kind of context, shared by the output's subscribers there.
  ///
  /// The storage keeps its lanes weakly: the entries keep them, and a lane whose entries are gone goes too, and with it
  /// its queue. Reading a weak reference under the lock may release a lane; a lane that nobody else holds has nothing
  /// waiting (a waiting event keeps its lane) and so no user object to release.
  ///
  /// A `.queue(_:)` lane is found by the identity of its `DispatchQueue` object. The main actor's is found by its kind:
  /// on Linux every read of `DispatchQueue.main` makes a new object for the same queue. A subscription with a bounded
  /// buffering policy gets a lane of its own, never shared, which its policy bounds.
  func lane(for context: DeliveryContext, at callSite: CallSite) -> DeliveryLane<Event> {
    let queue: DispatchQueue? =
      switch context.kind {
      case .immediate, .mainActor: nil
      case .queue(let queue): queue
      }
    let isBounded = context.bufferingPolicy.limit != nil
    return state.withLock { state in
      state.lanes.removeAll { $0.lane == nil }
      if !isBounded,
        let lane = state.lanes.lazy.compactMap(\.lane).first(where: { lane in
          lane.bufferingPolicy.limit == nil
            && (queue.map { !lane.runsInlineOnMainQueue && lane.queue === $0 } ?? lane.runsInlineOnMainQueue)
        })
      {
        return lane
      }
      let lane = DeliveryLane<Event>(
        queue: queue ?? .main, runsInlineOnMainQueue: queue == nil, bufferingPolicy: context.bufferingPolicy,
        callSite: callSite)
      state.lanes.append(WeakLane(lane: lane))
      return lane
    }
  }

  /// Keeps an actor responder's mailbox for `waitUntilDelivered()`, and lets go of those gone.
  func track(_ backlog: any DeliveryBacklog) {
    let live = state.withLock { state in
      // Taken out as strong references and released after unlocking: the last release of a mailbox releases its
      // handler, whose captures may have a deinit.
      let live = state.mailboxes.compactMap(\.backlog)
      state.mailboxes = live.map { WeakBacklog(backlog: $0) } + [WeakBacklog(backlog: backlog)]
      return live
    }
    _ = live
  }

  /// A call of `waitUntilDelivered()`: if a thread holds the delivery, marks work queued for it, so that it takes the
  /// lock when its round ends, and has the machine keep `wait` until the holder has delivered what is queued for it
  /// now; returns whether it did.
  func waitForHolder(_ wait: DeliveryWait) -> Bool {
    state.withLock { state in
      state.machine.wait(wait, isDelivering: latch.markWorkQueuedIfHeld()) == .waitForHolder
    }
  }

  /// The task of `wait` was cancelled while the holder kept it.
  func cancelWaitForHolder(_ wait: DeliveryWait) {
    state.withLock { $0.machine.cancel(wait) }
  }

  /// The lanes and mailboxes where delivered events may wait for their subscribers' context.
  var backlogs: [any DeliveryBacklog] {
    state.withLock { state in state.lanes.compactMap(\.lane) + state.mailboxes.compactMap(\.backlog) }
  }

  struct WeakLane: @unchecked Sendable {
    // A weak reference to a `Sendable` lane, read under the output's lock.
    weak var lane: DeliveryLane<Event>?
  }
}
