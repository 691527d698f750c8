import Synchronization

/// The last id a client was told about: the id of the last event frame written to it, or the id that a `subscribed`
/// or `reset` frame told it to resume after. A client closed by a shutdown is told it, so that it resumes elsewhere.
public final class DeliveryProgress: Sendable {
  private let last = Mutex<Int?>(nil)
  private let onWrite: (@Sendable (Duration) -> Void)?

  /// - Parameter onWrite: Called with how long each frame took to write.
  public init(resumingAfter id: Int? = nil, onWrite: (@Sendable (Duration) -> Void)? = nil) {
    last.withLock { $0 = id }
    self.onWrite = onWrite
  }

  /// Notes the id a frame written to the client carries, if any, and how long writing it took.
  public func record(_ frame: String, writtenIn duration: Duration? = nil) {
    if let duration { onWrite?(duration) }
    guard let id = Self.id(in: frame) else { return }
    last.withLock { $0 = id }
  }

  /// The last id the client was told about; `nil` before any.
  public var lastID: Int? { last.withLock { $0 } }

  /// The id an event frame carries, or the one a `subscribed` or `reset` frame resumes after; `nil` for others.
  public static func id(in frame: String) -> Int? {
    for prefix in [#"{"id":"#, #"{"kind":"subscribed","last-id":"#, #"{"kind":"reset","resume-after":"#]
    where frame.hasPrefix(prefix) {
      return Int(frame.dropFirst(prefix.count).prefix { $0.isNumber })
    }
    return nil
  }
}
