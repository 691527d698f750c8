/// The event of the main-actor scenarios: one word of payload, and whether it ends its batch.
public struct MainActorEvent: Sendable {
  /// The payload: the event's place in its repetition.
  public var sequence: Int
  /// Whether this is the last event of its batch, which each responder reports to the batch's ``BatchCompletion``.
  public var endsBatch: Bool

  /// Creates an event.
  public init(sequence: Int, endsBatch: Bool) {
    self.sequence = sequence
    self.endsBatch = endsBatch
  }
}
