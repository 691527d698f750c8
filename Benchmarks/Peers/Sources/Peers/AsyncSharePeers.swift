import AsyncAlgorithms
import Dispatch
import PeersHarness

/// The `fanout` scenario with swift-async-algorithms: one `AsyncStream` `share()`d by N consumer tasks, each
/// handing every element to its responder, as N screens each running `for await event in shared { … }`.
enum AsyncSharePeers {
  /// `async-algorithms-share`: `share()` (its default buffering, `.bounded(1)`) of an `AsyncStream`.
  ///
  /// Each iteration yields one event. After a repetition's events, one more element (`-1`, not counted) marks the
  /// end of the batch, and the measuring thread waits until every consumer has seen it, so the clock covers every
  /// delivery of the batch.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
  static func share(responderCount: Int) -> TimedWorkload {
    let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
    let shared = stream.share()
    let responders = (0..<responderCount).map { _ in Responder() }
    let ready = DispatchSemaphore(value: 0)
    let batchDone = DispatchSemaphore(value: 0)
    let consumers = responders.map { responder in
      Task.detached {
        var iterator = shared.makeAsyncIterator()
        ready.signal()
        while let sequence = await iterator.next(isolation: nil) {
          if sequence < 0 {
            batchDone.signal()
          } else {
            responder.handle(sequence)
          }
        }
      }
    }
    for _ in responders {
      ready.wait()
    }
    let finisher = StreamFinisher { continuation.finish() }
    return TimedWorkload(
      name: "async-algorithms-share", unitsPerIteration: responderCount,
      run: { events in
        for sequence in 0..<events {
          continuation.yield(sequence)
        }
        continuation.yield(-1)
        for _ in responders {
          batchDone.wait()
        }
        withExtendedLifetime((consumers, finisher)) {}
      },
      completedUnits: { responders.deliveries })
  }
}

/// Ends the stream, and so the consumer tasks, when the workload that holds it is released.
private final class StreamFinisher: Sendable {
  private let finish: @Sendable () -> Void

  init(_ finish: @escaping @Sendable () -> Void) {
    self.finish = finish
  }

  deinit {
    finish()
  }
}
