/// How far a run has got, on standard error: one line that rewrites itself on a terminal, and nothing at all in a
/// pipe, a file or a CI log, where the tables are all a reader wants.
final class ProgressLine {
  /// Whether progress is shown.
  enum Mode: Equatable, Sendable {
    /// One line, rewritten in place (carriage return, erase line).
    case live
    /// Nothing.
    case silent

    /// `live` when standard error is a terminal that can erase a line and no `CI` variable is set.
    static func choose(standardErrorIsTerminal: Bool, environment: [String: String]) -> Mode {
      guard standardErrorIsTerminal, environment["TERM"] != "dumb" else { return .silent }
      if let ci = environment["CI"], !ci.isEmpty {
        return .silent
      }
      return .live
    }
  }

  /// The widest status shown: wider lines wrap, and a wrapped line cannot be rewritten in place.
  static let maximumWidth = 79

  let mode: Mode
  private let write: (String) -> Void
  private var isShowing = false

  /// A progress line in `mode` that writes with `write`.
  init(mode: Mode, write: @escaping (String) -> Void) {
    self.mode = mode
    self.write = write
  }

  /// Replaces the line with `status`, cut to ``maximumWidth`` characters.
  func show(_ status: String) {
    guard mode == .live else { return }
    let line = status.count > Self.maximumWidth ? String(status.prefix(Self.maximumWidth - 1)) + "…" : status
    write(Self.eraseLine + line)
    isShowing = true
  }

  /// Erases the line, before other text or at the end of the run.
  func clear() {
    guard isShowing else { return }
    write(Self.eraseLine)
    isShowing = false
  }

  /// Back to the start of the line, then erase it.
  static let eraseLine = "\r\u{1B}[2K"
}
