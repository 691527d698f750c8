/// An `AsyncSequence` of raw payloads, iterated once for every subscriber of a ``Broadcaster`` and decoded once per
/// payload: the bridge for a client that delivers strings or bytes, with bad input counted instead of delivered.
///
/// ```swift
/// let orders = Broadcaster(
///   source: DecodingSource(name: "orders", { broker.messages(on: "orders") }) { message in
///     try JSONDecoder().decode(OrderEvent.self, from: message.body)
///   })
/// orders.subscribe(dashboard) { dashboard, event in dashboard.apply(event) }
/// ```
///
/// It connects and reconnects as ``AsyncSequenceSource`` does: a task iterates the sequence the closure returns, two
/// iterations never overlap, and disconnecting cancels the task. Each element is passed to `decode` once, whatever the
/// number of subscribers. A payload that `decode` rejects is not delivered: it is counted in
/// ``Broadcaster/decodeFailureCount`` and passed to ``Broadcaster/onDecodeFailure``, and the payloads after it are
/// decoded as usual. When the sequence throws, the error is reported the same way and no more events arrive; wrap the
/// upstream in a ``ReconnectingSource`` if it can drop.
public struct DecodingSource<Base: AsyncSequence & Sendable, Event: Sendable>: EventSource {
  private let name: String?
  private let makeSequence: @Sendable () -> Base
  private let decode: @Sendable (Base.Element) throws -> Event
  private let iterations = SerialIterations()

  /// Creates a source that iterates the sequence `makeSequence` returns, calling it at each connect, and decodes
  /// each element with `decode`.
  ///
  /// - Parameters:
  ///   - name: What carries the payloads, for the failure reports: a channel, a subject, a topic.
  ///   - makeSequence: Returns the sequence of raw payloads.
  ///   - decode: Turns a payload into an event, or throws.
  public init(
    name: String? = nil,
    _ makeSequence: @escaping @Sendable () -> Base,
    decode: @escaping @Sendable (Base.Element) throws -> Event
  ) {
    self.name = name
    self.makeSequence = makeSequence
    self.decode = decode
  }

  /// Creates a source that iterates `sequence` at each connect and decodes each element with `decode`.
  ///
  /// - Parameters:
  ///   - name: What carries the payloads, for the failure reports.
  ///   - sequence: The raw payloads; it should support more than one iteration if the broadcaster may reconnect.
  ///   - decode: Turns a payload into an event, or throws.
  public init(
    name: String? = nil,
    _ sequence: Base,
    decode: @escaping @Sendable (Base.Element) throws -> Event
  ) {
    self.init(name: name, { sequence }, decode: decode)
  }

  /// Starts a task that iterates the sequence, after the previous iteration has finished, decoding and sending each
  /// element.
  ///
  /// - Parameter sink: Where the decoded events and the failures go.
  /// - Returns: The iterating task.
  public func start(emitting sink: EventSink<Event>) -> Task<Void, Never> {
    let (name, makeSequence, decode) = (name, makeSequence, decode)
    return iterations.start {
      do {
        try await sink.send(contentsOf: makeSequence(), named: name, decode: decode)
      } catch {
        sink.reportFailure(DecodeFailure(name: name ?? "\(Base.self)", reason: .other("the sequence threw \(error)")))
      }
    }
  }

  /// Cancels the iterating task; returns without waiting for it to finish.
  ///
  /// - Parameter iteration: The task `start(emitting:)` returned.
  public func stop(_ iteration: Task<Void, Never>) {
    iteration.cancel()
  }
}
