/// The contenders, by the names reports and `--contender` use.
enum ContenderName: String, CaseIterable, Sendable {
  /// Strong method calls in a loop: the limit nothing can beat.
  case directCall = "direct-call"
  /// The naive `Output` of the seed article: a plain array of `(Event) -> Void` closures, not thread-safe.
  case closureArray = "closure-array"
  /// The best hand-written weak fan-out: boxes with a `weak` field in an array.
  case weakBoxLoop = "weak-box-loop"
  /// A hand-written weak fan-out through `[weak responder]` closures in an array.
  case weakClosureLoop = "weak-closure-loop"
  /// This library's `Output`, responders held weakly.
  case output
  /// This library's `Output`, token-owned handlers.
  case outputToken = "output-token"
  /// N NotificationCenter observers, each decoding the keyboard `userInfo` itself, as apps do today.
  case perObserver = "per-observer"
  /// This library's `KeyboardBroadcaster`: one observer, one decode, fanned out.
  case broadcaster

  /// The command-line and report name.
  var name: String { rawValue }

  /// The scenarios this contender takes part in.
  var scenarios: [Scenario] { Scenario.allCases.filter { $0.contenders.contains(self) } }
}
