import EventBus
import Synchronization

/// One WebSocket client of a topic: the responder its topic's broadcaster holds weakly. It queues each update's frame
/// for the client's writer task, which writes them to the socket in order.
///
/// The queue is bounded: a client that reads too slowly to keep up is closed instead of making the process hold an
/// ever longer queue for it.
public final class TopicSubscriber: EventResponder, Sendable {
  /// Frames the writer has not written yet, at most this many.
  public static let queueLimit = 4096

  /// The frames to write, in order; it ends when the client is too slow.
  public let frames: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation
  private let overflowed = Mutex(false)

  public init() {
    (frames, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
  }

  deinit {
    continuation.finish()
  }

  /// Queues the update's frame; ends the queue if it is full.
  public func handle(event update: TopicUpdate) {
    queue(update.frame)
  }

  /// Queues a frame; ends the queue if it is full, so the writer closes the client once it has written the rest.
  public func queue(_ frame: String) {
    if case .dropped = continuation.yield(frame) {
      overflowed.withLock { $0 = true }
      continuation.finish()
    }
  }

  /// Whether the queue ended because it was full: the client read too slowly.
  public var isOverflowed: Bool {
    overflowed.withLock { $0 }
  }

  /// Ends the queue: the writer stops after the frames already queued.
  public func finish() {
    continuation.finish()
  }
}
