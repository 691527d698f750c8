/// How the sending thread of the main-actor scenarios paces its events.
public enum SendingPattern: Sendable, Equatable {
  /// Batches of `events` events sent back to back, each batch delivered before the next is sent: a network
  /// response or a database change that produces many events at once.
  case bursts(events: Int)
  /// One event at a time, each delivered before the next is sent: a timer, a user action.
  case oneAtATime

  /// The events of one batch.
  public var eventsPerBatch: Int {
    switch self {
    case .bursts(let events): events
    case .oneAtATime: 1
    }
  }

  /// The bursts the main-actor scenario sends: 100 events each.
  public static let bursts = SendingPattern.bursts(events: 100)
}
