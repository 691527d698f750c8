extension EventStream {
  /// The events as an `AsyncSequence`, buffering without limit.
  ///
  /// ```swift
  /// for await event in viewModel.output.values {
  ///   render(event)
  /// }
  /// ```
  ///
  /// The subscription is made when you read `values`, not when iteration starts: events sent in between wait in the
  /// stream's buffer. It ends when the stream ends: the iterating task is cancelled, or the stream is released.
  /// Breaking out of `for await event in output.values` releases the stream; a stream kept in a variable stays
  /// subscribed until the variable goes.
  public var values: AsyncStream<Event> {
    values(bufferingPolicy: .unbounded)
  }

  /// The events as an `AsyncSequence` with a buffering policy for events that arrive faster than they are consumed.
  ///
  /// - Parameters:
  ///   - bufferingPolicy: `.bufferingNewest(n)` keeps the latest `n` events waiting, `.bufferingOldest(n)` the
  ///     earliest, `.unbounded` all of them.
  ///   - fileID: The file of the call, recorded for `debugDescription`; leave the default.
  ///   - line: The line of the call, recorded for `debugDescription`; leave the default.
  /// - Returns: A stream that subscribes now and cancels its subscription when iteration ends.
  public func values(
    bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> AsyncStream<Event> {
    let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: bufferingPolicy)
    let subscription = _subscribe(on: .immediate, at: CallSite(fileID: fileID, line: line)) { event in
      continuation.yield(event)
    }
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }
}
