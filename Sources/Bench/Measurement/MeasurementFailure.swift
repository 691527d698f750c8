/// A measurement that cannot be trusted, such as a contender that did not deliver every event.
/// `Bench` stops with exit status 1.
struct MeasurementFailure: Error, Equatable, CustomStringConvertible {
  var message: String

  var description: String { message }
}
