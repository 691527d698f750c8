// What waits in a lane: how many events (`waitingCount`), how many its policy dropped, and the calls of
// `Output.waitUntilDelivered()` registered with its block, which passes each once it has delivered what waited when it
// came.

extension DeliveryLane: DeliveryBacklog {
  func register(_ wait: DeliveryWait) -> Bool {
    state.withLock { state in
      guard state.isScheduled else { return false }
      state.waits = state.waits ?? DeliveryWaitList()
      // A bounded lane's block takes one event at a time; an unbounded one's, the whole burst.
      let items = bufferingPolicy.limit == nil ? (state.events.isEmpty ? 0 : 1) : state.events.count
      state.waits?.add(wait, behind: items)
      return true
    }
  }

  func forget(_ wait: DeliveryWait) {
    state.withLock { $0.waits?.remove(wait) }
  }
}

extension DeliveryLane {
  /// Events waiting for the lane's subscribers, or in the block's hands and not delivered yet.
  var waitingCount: Int {
    state.withLock { $0.events.count + $0.taken }
  }

  /// Events the lane's policy dropped.
  var droppedCount: Int {
    state.withLock { $0.dropped }
  }
}
