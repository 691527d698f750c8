extension EventStream {
  /// The events as an `AsyncSequence`, buffering without limit.
  ///
  /// ```swift
  /// let events = viewModel.output.values   // subscribed here
  /// let task = Task {
  ///   for await event in events { render(event) }
  /// }
  /// ```
  ///
  /// The subscription is made when you read `values`, not when iteration starts: events sent in between wait in the
  /// stream's buffer. So read it before the `Task` that loops over it, as above. Read inside the task's closure, it
  /// subscribes only when the task first runs, and the events sent before that are not received.
  ///
  /// The subscription ends when the stream ends: the iterating task is cancelled, or the stream is released.
  /// Breaking out of a loop leaves it subscribed while a variable such as `events` still holds it.
  public var values: AsyncStream<Event> {
    values(bufferingPolicy: .unbounded)
  }

  /// The events as an `AsyncSequence` with a buffering policy for events that arrive faster than they are consumed.
  ///
  /// - Parameters:
  ///   - bufferingPolicy: `.bufferingNewest(n)` keeps the latest `n` events waiting, `.bufferingOldest(n)` the
  ///     earliest, `.unbounded` all of them.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
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
