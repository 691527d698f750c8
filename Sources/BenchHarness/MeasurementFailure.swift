/// A measurement that cannot be trusted, such as a contender that did not deliver every event.
/// The run stops with exit status 1.
public struct MeasurementFailure: Error, Equatable, CustomStringConvertible {
  /// What went wrong, naming the contender.
  public var message: String

  /// Creates a failure with its message.
  public init(message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
