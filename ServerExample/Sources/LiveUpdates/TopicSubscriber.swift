import EventBus
import Synchronization

/// One WebSocket client of a topic: the responder its topic's feed holds weakly. It queues each update for the
/// client's writer task, which writes them to the socket in order.
///
/// The queue is bounded: a client that reads too slowly to keep up is closed instead of making the process hold an
/// ever longer queue for it; it resumes from the table with its last id.
public final class TopicSubscriber: EventResponder, Sendable {
  /// Updates the writer has not handled yet, at most this many.
  public static let queueLimit = 4096

  /// The updates to write, in order; it ends when the client is too slow or leaves.
  public let updates: AsyncStream<TopicUpdate>
  private let continuation: AsyncStream<TopicUpdate>.Continuation
  private let overflowed = Mutex(false)

  public init() {
    (updates, continuation) = AsyncStream.makeStream(
      of: TopicUpdate.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
  }

  deinit {
    continuation.finish()
  }

  /// Queues the update; ends the queue if it is full, so the writer closes the client once it has written the rest.
  public func handle(event update: TopicUpdate) {
    if case .dropped = continuation.yield(update) {
      overflowed.withLock { $0 = true }
      continuation.finish()
    }
  }

  /// Whether the queue ended because it was full: the client read too slowly.
  public var isOverflowed: Bool {
    overflowed.withLock { $0 }
  }

  /// Ends the queue: the writer stops after the updates already queued.
  public func finish() {
    continuation.finish()
  }
}
