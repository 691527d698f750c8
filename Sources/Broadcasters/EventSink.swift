/// Where an ``EventSource`` sends the events it decoded, and reports the payloads it could not decode.
///
/// A sink belongs to one connection: once the broadcaster has started stopping that connection, the sink ignores
/// further calls, so a late callback from an upstream that is shutting down never reaches the subscribers of a
/// later connection. Sinks are cheap to copy and may be called from any thread.
public struct EventSink<Event: Sendable>: Sendable {
  private let fanOut: FanOut<Event>
  private let connection: UInt64

  init(fanOut: FanOut<Event>, connection: UInt64) {
    self.fanOut = fanOut
    self.connection = connection
  }

  /// Delivers `event` to every subscriber of the broadcaster.
  ///
  /// Events sent concurrently are delivered one at a time, in the order the broadcaster's output receives them
  /// (G2); a `send` from inside a handler is queued, not recursive (G3).
  ///
  /// - Parameter event: The decoded event.
  /// - Complexity: O(*n*) for *n* subscribers.
  public func send(_ event: Event) {
    fanOut.send(event, from: connection)
  }

  /// Reports an upstream payload that could not be decoded: it is counted in
  /// ``Broadcaster/decodeFailureCount`` and passed to ``Broadcaster/onDecodeFailure``, and nothing is delivered.
  ///
  /// - Parameter failure: What could not be decoded, and why.
  public func reportFailure(_ failure: DecodeFailure) {
    fanOut.report(failure, from: connection)
  }
}
