// Compiled in two places, like EventBus's Combine bridge (Bridges/EventStream+Combine.swift says why this way): here
// against Apple's Combine, and on Linux by the Integration package, in a module of its own against OpenCombine.
#if EVENTBUS_BRIDGE_MODULE
  import Broadcasters
  import OpenCombine
#elseif canImport(Combine)
  import Combine
#endif

#if EVENTBUS_BRIDGE_MODULE || canImport(Combine)
  /// A Combine publisher, subscribed to once for every subscriber of a ``Broadcaster``.
  ///
  /// ```swift
  /// let reachability = Broadcaster(source: PublisherSource { monitor.statusPublisher })
  /// ```
  ///
  /// Connecting subscribes to the publisher the closure returns; disconnecting cancels that subscription. A failure
  /// completion is reported to ``Broadcaster/onDecodeFailure`` and counted in ``Broadcaster/decodeFailureCount``.
  public struct PublisherSource<Upstream: Publisher>: EventSource where Upstream.Output: Sendable {
    /// The publisher's output.
    public typealias Event = Upstream.Output

    /// The Combine subscription of one connection.
    public struct Connection {
      fileprivate let cancellable: AnyCancellable
    }

    private let makePublisher: @Sendable () -> Upstream

    /// Creates a source that subscribes to the publisher `makePublisher` returns, calling it at each connect.
    ///
    /// - Parameter makePublisher: Returns the publisher to subscribe to.
    public init(_ makePublisher: @escaping @Sendable () -> Upstream) {
      self.makePublisher = makePublisher
    }

    /// Subscribes to a fresh publisher from the closure and sends each value.
    ///
    /// - Parameter sink: Where the values go.
    /// - Returns: The Combine subscription.
    public func start(emitting sink: EventSink<Event>) -> Connection {
      let cancellable = makePublisher().sink(
        receiveCompletion: { completion in
          if case .failure(let error) = completion {
            let reason = DecodeFailure.Reason.other("the publisher failed: \(error)")
            sink.reportFailure(DecodeFailure(name: "\(Upstream.self)", reason: reason))
          }
        },
        receiveValue: { value in
          sink.send(value)
        }
      )
      return Connection(cancellable: cancellable)
    }

    /// Cancels the Combine subscription.
    ///
    /// - Parameter connection: The value `start(emitting:)` returned.
    public func stop(_ connection: Connection) {
      connection.cancellable.cancel()
    }
  }

  // The broadcaster stops a connection once, on one thread, and nothing else touches its `AnyCancellable`.
  extension PublisherSource.Connection: @unchecked Sendable {}
#endif
