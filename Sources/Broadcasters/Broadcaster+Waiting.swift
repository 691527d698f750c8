extension Broadcaster {
  /// Returns once every event the broadcaster received from its source before the call has been delivered to every
  /// subscriber, in every delivery context, as ``/EventBus/Output/waitUntilDelivered()`` does for an output.
  ///
  /// ```swift
  /// let recorder = EventRecorder(orders, on: .queue(background))
  /// center.post(name: .orderPlaced, object: nil)   // the source hands the event over on this thread
  /// try await orders.waitUntilDelivered()
  /// #expect(recorder.count == 1)
  /// ```
  ///
  /// It covers the events whose upstream delivery had reached the broadcaster when the call began: an event the
  /// source sends later, from its own task or thread (a timer's next tick), is not waited for. With nothing in flight
  /// it returns at once.
  ///
  /// - Throws: `CancellationError` when the task is cancelled first; the deliveries go on.
  public func waitUntilDelivered() async throws {
    try await fanOut.output.waitUntilDelivered()
  }
}
