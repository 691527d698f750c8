/// The contenders, by the names reports and `--contender` use.
///
/// A name stands for one way of delivering events; in each scenario it does that scenario's work (``legend(in:)``).
enum ContenderName: String, CaseIterable, Sendable {
  /// Strong method calls in a loop: the limit nothing can beat.
  case directCall = "direct-call"
  /// The naive `Output` of the seed article: a plain array of `(Event) -> Void` closures, not thread-safe.
  case closureArray = "closure-array"
  /// The best hand-written weak fan-out: boxes with a `weak` field in an array.
  case weakBoxLoop = "weak-box-loop"
  /// A hand-written weak fan-out through `[weak responder]` closures in an array.
  case weakClosureLoop = "weak-closure-loop"
  /// Foundation's typed `NotificationCenter.MainActorMessage`, one `addObserver(of:for:)` per responder.
  case mainActorMessage = "main-actor-message"
  /// Hand-written: `DispatchQueue.main.async` per responder per event.
  case mainQueueAsync = "main-queue-async"
  /// One `AsyncStream` per responder, iterated by a task of its own.
  case asyncStream = "async-stream"
  /// Foundation's typed `NotificationCenter.AsyncMessage`, one `addObserver(of:for:using:)` per actor.
  case asyncMessage = "async-message"
  /// This library's `Output`, responders held weakly.
  case output
  /// This library's `Output`, responders on `.main` with a bounded buffering policy: what the bounded path costs.
  case outputBounded = "output-bounded"
  /// This library's `Output`, token-owned handlers.
  case outputToken = "output-token"
  /// N NotificationCenter observers, each decoding the keyboard `userInfo` itself, as apps do today.
  case perObserver = "per-observer"
  /// This library's `KeyboardBroadcaster`: one observer, one decode, fanned out.
  case broadcaster
  /// Overload: every subscriber keeps every event that waits (`.unbounded`, the default policy).
  case unbounded
  /// Overload: every subscriber keeps the newest 100 events that wait (`.bufferingNewest(100)`).
  case newest100 = "newest-100"
  /// Overload: every subscriber keeps the oldest 100 events that wait (`.bufferingOldest(100)`).
  case oldest100 = "oldest-100"
  /// Overload: every subscriber keeps only the newest event that waits (`.latest`).
  case latest

  /// The command-line and report name.
  var name: String { rawValue }

  /// The scenarios this contender takes part in.
  var scenarios: [Scenario] { Scenario.allCases.filter { $0.contenders.contains(self) } }

  /// What the contender does in `scenario`, in one line, for `--help` and the legend under each table.
  func legend(in scenario: Scenario) -> String {
    switch (self, scenario.sendsToTheMainActor) {
    case (.directCall, _): "strong references in an array, one method call each: the limit"
    case (.closureArray, _): "a naive Output: an array of closures holding responders strongly; not thread-safe"
    case (.weakBoxLoop, _):
      "hand-written: boxes with a weak field in an array, called in a loop; the best weak fan-out, not thread-safe"
    case (.weakClosureLoop, _): "hand-written: [weak responder] closures in an array, called in a loop; not thread-safe"
    case (.mainActorMessage, true):
      "Foundation's typed NotificationCenter.MainActorMessage, posted through one main-actor Task per event, "
        + "one addObserver(of:for:) per responder"
    case (.mainActorMessage, false) where scenario == .sourceFanout:
      "one addObserver(of:for:) per screen for a typed MainActorMessage carrying the keyboard userInfo, each screen "
        + "decoding it"
    case (.mainActorMessage, false):
      "Foundation's typed NotificationCenter.MainActorMessage, post(_:) on the main actor, one addObserver(of:for:) "
        + "per responder"
    case (.mainQueueAsync, _): "hand-written: DispatchQueue.main.async per responder per event, [weak responder]"
    case (.asyncStream, _) where scenario == .actor:
      "one AsyncStream per actor, iterated by a Task of its own that awaits the actor for each event"
    case (.asyncStream, _): "one AsyncStream per responder, iterated by a main-actor Task"
    case (.asyncMessage, _):
      "Foundation's typed NotificationCenter.AsyncMessage, posted from the sending thread, one "
        + "addObserver(of:for:using:) per actor; each delivery is a task of its own that awaits the actor"
    case (.output, _) where scenario == .actor:
      "this library's Output, each actor subscribed with subscribe(actor) { … } (held weakly), one drain task at a "
        + "time per actor"
    case (.output, true): "this library's Output, responders subscribed with on: .main (held weakly)"
    case (.output, false): "this library's Output, responders held weakly"
    case (.outputBounded, _):
      "main-actor only: this library's Output, responders subscribed with on: .main(bufferingPolicy: "
        + ".bufferingNewest(1_000)) (held weakly); bursts of 100 never drop: what the bounded path costs"
    case (.outputToken, _): "this library's Output, token-owned handlers"
    case (.perObserver, _): "one NotificationCenter observer per responder, each decoding the keyboard userInfo"
    case (.broadcaster, _): "this library's KeyboardBroadcaster: one observer, one decode, fanned out"
    case (.unbounded, _): "bufferingPolicy: .unbounded, the default: every subscriber keeps every event that waits"
    case (.newest100, _):
      "bufferingPolicy: .bufferingNewest(100): keeps the newest 100 events that wait, drops the oldest to make room"
    case (.oldest100, _):
      "bufferingPolicy: .bufferingOldest(100): keeps the oldest 100 events that wait, drops each newer one"
    case (.latest, _): "bufferingPolicy: .latest (.bufferingNewest(1)): keeps only the newest event that waits"
    }
  }
}
