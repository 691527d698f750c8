extension Output {
  /// Returns once every event sent before the call has been delivered to every subscriber, in every delivery context.
  ///
  /// For a test that sends and then looks at what its subscribers did, whatever their context, without polling or
  /// sleeping:
  ///
  /// ```swift
  /// output.subscribe(store) { store, event in store.apply(event) }  // an actor responder
  /// output.send(.added("tea"))
  /// try await output.waitUntilDelivered()
  /// #expect(await store.items == ["tea"])
  /// ```
  ///
  /// "Delivered" means that the handler has returned: an `.immediate` handler on the thread that delivered the event
  /// (another thread's, when a delivery was running there, G2), a `.queue(_:)` or `.main` handler on its queue, an
  /// actor responder's handler on its actor, awaits and all. The wait covers each event whose `send` returned before
  /// the call, also on other threads, to each subscription made before the call; events sent later may be delivered
  /// before it returns too. A subscriber cancelled meanwhile, or whose responder deinitialised, has nothing more to
  /// receive. With nothing in flight it returns at once.
  ///
  /// Nothing polls: the thread that delivers, each queue's block and each actor's task resume the wait when they have
  /// delivered the last event it waits for. Don't await it in a handler of this output, which it would wait for: a
  /// synchronous handler cannot, and an actor responder's would wait for itself.
  ///
  /// - Throws: `CancellationError` when the task is cancelled before the events are delivered: at once, leaving
  ///   nothing registered behind. The deliveries go on.
  /// - Complexity: O(*q* + *m*) for *q* delivery queues and *m* actor responders, and O(1) for each of them to resume.
  ///   Costs a `send` nothing while nobody waits.
  public func waitUntilDelivered() async throws {
    try await waitUntilDelivered(whenRegistered: { _ in })
  }

  /// As ``waitUntilDelivered()``; calls `whenRegistered` with the wait each time it is about to suspend, kept by what
  /// it waits for: the holder of the delivery, then the lanes and mailboxes (for tests).
  func waitUntilDelivered(whenRegistered: (DeliveryWait) -> Void) async throws {
    try Task.checkCancellation()
    let wait = DeliveryWait()
    try await withTaskCancellationHandler {
      // First the holder of the delivery, if a thread holds it: then events sent before the call may still be queued
      // for it. Once it has delivered them, they have reached every `.immediate` handler and are queued in each lane
      // and actor mailbox (or delivered inline on the main actor).
      let waitsForHolder = storage.waitForHolder(wait)
      if waitsForHolder {
        wait.expect(1)
        whenRegistered(wait)
        await wait.suspend()
        guard wait.hasArrived else {
          storage.cancelWaitForHolder(wait)
          throw CancellationError()
        }
      }
      // Then every lane and mailbox that holds any of them, all at once.
      let backlogs = storage.backlogs
      let registered = backlogs.filter { $0.register(wait) }
      wait.expect(registered.count)
      whenRegistered(wait)
      await wait.suspend()
      guard wait.hasArrived else {
        for backlog in registered {
          backlog.forget(wait)
        }
        throw CancellationError()
      }
    } onCancel: {
      wait.cancel()
    }
  }
}
