import BenchHarness

/// What `Bench` measures: one question about event delivery, asked of several contenders at several N.
///
/// The names, metrics and contenders are fixed: reports, `--contender` and `--compare` key on them.
enum Scenario: String, CaseIterable, Sendable {
  /// One event fanned out to N responders by each way of holding them.
  case fanout
  /// One NotificationCenter post with a keyboard-like `userInfo`, reaching N responders.
  case sourceFanout = "source-fanout"
  /// Bursts of events sent from a background thread to N responders on the main actor.
  case mainActor = "main-actor"
  /// Events sent from a background thread to N responders on the main actor, one at a time.
  case mainActorPaced = "main-actor-paced"
  /// Bursts of events sent from a background thread to N actors, each counting them in its own state.
  case actor
  /// How many upstream (NotificationCenter) subscriptions N live responders cost.
  case upstream
  /// Subscribing and cancelling one responder while N others stay subscribed.
  case subscribeCancel = "subscribe-cancel"
  /// Heap bytes one subscription costs.
  case memory
  /// One sender thread outrunning N slow subscribers, each on a serial queue of its own, under each buffering policy.
  case overload
  /// One sender thread outrunning N slow subscribers on the main actor, under each buffering policy.
  case overloadMain = "overload-main"

  /// The command-line and report name.
  var name: String { rawValue }

  /// The scenario's main figure: the one progress shows and charts plot.
  var metric: Metric { metrics[0] }

  /// Every figure the scenario reports, the main one first. The main-queue block count of the main-actor scenarios
  /// is reported where the process can count it (``MainQueueBlocks``).
  var metrics: [Metric] {
    switch self {
    case .fanout, .sourceFanout, .actor: [.nanosecondsPerDelivery]
    case .mainActor, .mainActorPaced: [.nanosecondsPerDelivery, .mainQueueBlocksPerEvent]
    case .upstream: [.subscriptions]
    case .subscribeCancel: [.nanosecondsPerCycle]
    case .memory: [.bytesPerSubscriber]
    case .overload, .overloadMain: [.peakHeapBytes, .peakWaiting, .sent, .delivered, .dropped]
    }
  }

  /// Every contender of the scenario, in report order: the reference points first, the library last.
  var contenders: [ContenderName] {
    switch self {
    case .fanout:
      [.directCall, .closureArray, .weakBoxLoop, .weakClosureLoop, .mainActorMessage, .output, .outputToken]
    case .sourceFanout: [.perObserver, .mainActorMessage, .broadcaster]
    case .mainActor: [.mainQueueAsync, .mainActorMessage, .asyncStream, .output, .outputBounded]
    case .mainActorPaced: [.mainQueueAsync, .mainActorMessage, .asyncStream, .output]
    case .actor: [.asyncStream, .asyncMessage, .output]
    case .upstream: [.perObserver, .broadcaster]
    case .subscribeCancel: [.perObserver, .output, .broadcaster]
    case .memory: [.perObserver, .output, .outputToken, .broadcaster]
    case .overload, .overloadMain: [.unbounded, .newest100, .oldest100, .latest]
    }
  }

  /// The contender every other is measured against: hand-written code or Foundation, which this package does not
  /// change, doing the same work in the same repetitions. Tables give each figure's ratio to it, and `--compare`
  /// uses it as the yardstick of the machine. `nil` for exact counts, and for the overload scenarios, whose contenders
  /// are all this library's and whose figures are counts too.
  var reference: ContenderName? {
    switch self {
    case .fanout: .weakBoxLoop
    case .sourceFanout, .subscribeCancel, .memory: .perObserver
    case .mainActor, .mainActorPaced: .mainQueueAsync
    case .actor: .asyncStream
    case .upstream, .overload, .overloadMain: nil
    }
  }

  /// Whether the scenario times events sent from a thread other than the main actor's to responders on it, and
  /// counts the main queue's blocks: `main-actor` and `main-actor-paced` (`overload-main` counts events instead).
  var sendsToTheMainActor: Bool { self == .mainActor || self == .mainActorPaced }

  /// Whether the scenario is `overload` or `overload-main`: a sender that outruns its subscribers for a fixed time.
  var isOverload: Bool { self == .overload || self == .overloadMain }

  /// Whether every repetition sends from the measuring thread and waits until its events are delivered elsewhere:
  /// the main-actor scenarios and `actor`.
  var waitsForDelivery: Bool { sendsToTheMainActor || self == .actor }

  /// How the scenarios that wait for delivery send: bursts, or one event at a time.
  var sendingPattern: SendingPattern? {
    switch self {
    case .mainActor, .actor: .bursts
    case .mainActorPaced: .oneAtATime
    default: nil
    }
  }

  /// One line for the usage text and the table heading.
  var summary: String {
    switch self {
    case .fanout: "one event delivered to N responders; time ÷ (events × N)"
    case .sourceFanout: "one NotificationCenter post with a keyboard userInfo reaching N responders; time ÷ (posts × N)"
    case .mainActor:
      "bursts of \(SendingPattern.bursts.eventsPerBatch) events sent from a background thread to N responders on "
        + "the main actor, each burst delivered before the next; time ÷ (events × N)"
    case .mainActorPaced:
      "events sent from a background thread to N responders on the main actor one at a time, each delivered "
        + "before the next is sent; time ÷ (events × N)"
    case .actor:
      "bursts of \(SendingPattern.bursts.eventsPerBatch) events sent from a background thread to N actors, each "
        + "burst applied by every actor before the next; time ÷ (events × N)"
    case .upstream: "upstream NotificationCenter subscriptions held for N live responders"
    case .subscribeCancel: "subscribe then cancel one responder while N stay subscribed"
    case .memory: "heap growth from subscribing N already allocated responders, ÷ N"
    case .overload:
      "one thread sends for \(OverloadScenario.durationDescription), to N subscribers, each on a serial queue of its "
        + "own, whose handlers spin \(OverloadScenario.busyWorkDescription) an event; counted once they drained"
    case .overloadMain:
      "one thread sends for \(OverloadScenario.durationDescription), to N subscribers on the main actor, whose "
        + "handlers spin \(OverloadScenario.busyWorkDescription) an event; counted once they drained"
    }
  }

  /// The summary for the tables of `metric`: a count of main-queue blocks is captioned as the count it is, not with
  /// the time division of the scenario's main figure; an overload figure says how it was taken.
  func summary(of metric: Metric) -> String {
    if isOverload, let taken = OverloadScenario.howTaken(metric) {
      return summary + "; " + taken
    }
    guard metric == .mainQueueBlocksPerEvent, metrics.contains(metric), let division = summary.range(of: "; time ÷ ")
    else { return summary }
    return summary[..<division.lowerBound] + "; a count: main-queue blocks ÷ events, for all N responders together"
  }

  /// The responder counts a run (a `--quick` one if `quick`) measures unless `--n` says otherwise.
  ///
  /// The main-actor scenarios and `actor` stop at 1 000, and at 100 with `--quick`: every repetition waits for its
  /// events to be delivered, and at 1 000 responders a burst is 100 000 deliveries, a good part of a second for
  /// `async-stream`'s tasks (`--n` measures any N). The overload scenarios stop at 100, and at 10 with `--quick`: each
  /// N runs each contender for a fixed time, then drains what waits.
  func defaultResponderCounts(quick: Bool) -> [Int] {
    if isOverload {
      return quick ? [1, 10] : [1, 10, 100]
    }
    guard waitsForDelivery else { return Self.defaultResponderCounts }
    return quick ? [1, 10, 100] : [1, 10, 100, 1000]
  }

  /// The responder counts of most scenarios.
  static let defaultResponderCounts = [1, 10, 100, 1000, 10_000]
}
