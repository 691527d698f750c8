/// What the objects of a scenario received, in order, one line each; printed as it is written when `echoes` is set.
///
/// Every object of the tour lives on the main actor and writes here when it handles an event, so the lines read as
/// the flow of events: `"SignInScreen ← signInEnabled(true)"`. The scenarios write the user's actions as
/// `"▸ user taps Sign In"` lines between them.
@MainActor
public final class Transcript {
  /// Every line written so far.
  public private(set) var lines: [String] = []
  private let echoes: Bool

  /// Creates an empty transcript.
  ///
  /// - Parameter echoes: Whether to print each line as it is written; the executable does, the tests do not.
  public init(echoes: Bool = false) {
    self.echoes = echoes
  }

  /// Records that `receiver` received `event`.
  ///
  /// - Parameters:
  ///   - receiver: Who received it, by the name of its type.
  ///   - event: What it received.
  public func received(_ receiver: String, _ event: String) {
    write("  \(receiver) ← \(event)")
  }

  /// Records something that happened: a user's action, or a figure worth showing.
  ///
  /// - Parameter step: The action or the observation.
  public func note(_ step: String) {
    write("▸ \(step)")
  }

  /// Starts a scenario.
  ///
  /// - Parameter title: The scenario's title.
  public func begin(_ title: String) {
    write("\n== \(title)")
  }

  /// The lines written since the last ``begin(_:)`` that say who received what, without the leading spaces.
  public var receipts: [String] {
    let start = (lines.lastIndex { $0.hasPrefix("\n== ") } ?? -1) + 1
    return lines[start...].filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
  }

  private func write(_ line: String) {
    lines.append(line)
    if echoes { print(line) }
  }
}
