/// A command line `Bench` cannot run. It exits with status 2, printing the message and where the usage is.
struct ArgumentError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, naming the argument at fault.
  var message: String

  var description: String { message }

  /// The exit status for a bad command line, as in most command-line tools.
  static let exitStatus: Int32 = 2
}
