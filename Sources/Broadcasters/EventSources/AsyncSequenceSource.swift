import EventBus

/// An `AsyncSequence`, iterated once for every subscriber of a ``Broadcaster``: the bridge for anything that arrives
/// as an async stream.
///
/// ```swift
/// let prices = Broadcaster(source: AsyncSequenceSource { market.priceUpdates() })
/// prices.subscribe(chart) { chart, price in chart.append(price) }
/// prices.subscribe(ticker) { ticker, price in ticker.show(price) }   // same iteration
/// ```
///
/// Connecting starts a task that iterates the sequence and sends each element; disconnecting cancels that task. A
/// reconnect iterates again, from the sequence the closure returns then, and only after the previous iteration has
/// finished, so two iterations never overlap. Make the closure return a fresh sequence if the upstream can be
/// observed only once (an `AsyncStream` ends for good when its iteration is cancelled).
///
/// When the sequence ends, no more events arrive, and the broadcaster stays connected until its last subscriber is
/// gone. When it throws, the error is reported to ``Broadcaster/onDecodeFailure`` and counted in
/// ``Broadcaster/decodeFailureCount``.
public struct AsyncSequenceSource<Base: AsyncSequence & Sendable>: EventSource where Base.Element: Sendable {
  /// The sequence's elements.
  public typealias Event = Base.Element

  private let makeSequence: @Sendable () -> Base
  /// The latest iteration, which the next one waits for.
  private let latestIteration = LockedState<Task<Void, Never>?>(nil)

  /// Creates a source that iterates the sequence `makeSequence` returns, calling it at each connect.
  ///
  /// - Parameter makeSequence: Returns the sequence to iterate.
  public init(_ makeSequence: @escaping @Sendable () -> Base) {
    self.makeSequence = makeSequence
  }

  /// Creates a source that iterates `sequence` at each connect.
  ///
  /// - Parameter sequence: The sequence; it should support more than one iteration if the broadcaster may reconnect.
  public init(_ sequence: Base) {
    self.init { sequence }
  }

  /// Starts a task that iterates the sequence, after the previous iteration has finished, and sends each element.
  ///
  /// - Parameter sink: Where the elements go.
  /// - Returns: The iterating task.
  public func start(emitting sink: EventSink<Event>) -> Task<Void, Never> {
    let makeSequence = makeSequence
    return latestIteration.withLock { latest in
      let previous = latest
      let iteration = Task {
        await previous?.value
        guard !Task.isCancelled else { return }
        do {
          for try await element in makeSequence() {
            sink.send(element)
          }
        } catch {
          sink.reportFailure(DecodeFailure(name: "\(Base.self)", reason: .other("the sequence threw \(error)")))
        }
      }
      latest = iteration
      return iteration
    }
  }

  /// Cancels the iterating task; returns without waiting for it to finish.
  ///
  /// - Parameter iteration: The task `start(emitting:)` returned.
  public func stop(_ iteration: Task<Void, Never>) {
    iteration.cancel()
  }
}
