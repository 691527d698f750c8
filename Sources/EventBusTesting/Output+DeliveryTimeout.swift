import EventBus

// `waitUntilDelivered()` with a time limit, for tests: a delivery that never finishes (a queue blocked for good, an
// actor responder that never returns) fails the test instead of hanging it.

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Output {
  /// Returns once every event sent before the call has been delivered to every subscriber, as
  /// ``EventBus/Output/waitUntilDelivered()`` does; after `timeout`, fails the test saying so and returns `false`.
  ///
  /// ```swift
  /// output.send(.added("tea"))
  /// await output.waitUntilDelivered(timeout: .seconds(5))
  /// ```
  ///
  /// A cancelled task ends the wait at once, returning `false` and recording nothing.
  ///
  /// - Parameters:
  ///   - timeout: The longest wait, in real time.
  ///   - fileID: The file to report a failure in; leave the defaults of this and the next three.
  ///   - filePath: The file's path.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: Whether everything was delivered in time.
  @discardableResult
  public func waitUntilDelivered(
    timeout: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    await DeliveryTimeout.wait(
      for: "Output<\(TypeName.of(Event.self))>", subscribers: subscriberCount, timeout: timeout,
      at: TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { try await self.waitUntilDelivered() }
  }
}
