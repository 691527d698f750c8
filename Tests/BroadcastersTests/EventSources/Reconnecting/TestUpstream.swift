import Broadcasters
import EventBus

/// An upstream a test controls, standing in for a database or broker connection: each session subscribes to it, and
/// the test publishes to, or drops, the live subscription.
final class TestUpstream<Element: Sendable>: Sendable {
  struct Dropped: Error, CustomStringConvertible {
    var description: String { "dropped by the test" }
  }

  private struct State {
    var live: AsyncThrowingStream<Element, any Error>.Continuation?
    var subscriptions = 0
    var liveCount = 0
    var maxLiveCount = 0
  }

  private let state = LockedState(State())

  /// Subscribes: the returned stream receives what the test publishes until it is dropped or its iteration ends.
  func subscribe() -> AsyncThrowingStream<Element, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
    continuation.onTermination = { [state] _ in
      state.withLock { $0.liveCount -= 1 }
    }
    state.withLock { state in
      state.subscriptions += 1
      state.liveCount += 1
      state.maxLiveCount = max(state.maxLiveCount, state.liveCount)
      state.live = continuation
    }
    return stream
  }

  /// Sends `element` to the live subscription.
  func publish(_ element: Element) {
    _ = state.withLock { $0.live }?.yield(element)
  }

  /// Ends the live subscription with an error, as a dropped connection does.
  func drop() {
    state.withLock { $0.live }?.finish(throwing: Dropped())
  }

  /// How many subscriptions were made.
  var subscriptions: Int { state.withLock { $0.subscriptions } }
  /// How many subscriptions are being iterated now.
  var liveCount: Int { state.withLock { $0.liveCount } }
  /// The most subscriptions iterated at once.
  var maxLiveCount: Int { state.withLock { $0.maxLiveCount } }
}
