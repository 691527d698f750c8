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
    }
  }

  /// Every contender of the scenario, in report order: the reference points first, the library last.
  var contenders: [ContenderName] {
    switch self {
    case .fanout:
      [.directCall, .closureArray, .weakBoxLoop, .weakClosureLoop, .mainActorMessage, .output, .outputToken]
    case .sourceFanout: [.perObserver, .mainActorMessage, .broadcaster]
    case .mainActor, .mainActorPaced: [.mainQueueAsync, .mainActorMessage, .asyncStream, .output]
    case .actor: [.asyncStream, .asyncMessage, .output]
    case .upstream: [.perObserver, .broadcaster]
    case .subscribeCancel: [.perObserver, .output, .broadcaster]
    case .memory: [.perObserver, .output, .outputToken, .broadcaster]
    }
  }

  /// The contender every other is measured against: hand-written code or Foundation, which this package does not
  /// change, doing the same work in the same repetitions. Tables give each figure's ratio to it, and `--compare`
  /// uses it as the yardstick of the machine. `nil` for exact counts.
  var reference: ContenderName? {
    switch self {
    case .fanout: .weakBoxLoop
    case .sourceFanout, .subscribeCancel, .memory: .perObserver
    case .mainActor, .mainActorPaced: .mainQueueAsync
    case .actor: .asyncStream
    case .upstream: nil
    }
  }

  /// Whether the scenario's work is sent from a thread other than the main actor's, to responders on it.
  var sendsToTheMainActor: Bool { self == .mainActor || self == .mainActorPaced }

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
    }
  }

  /// The summary for the tables of `metric`: a count of main-queue blocks is captioned as the count it is, not with
  /// the time division of the scenario's main figure.
  func summary(of metric: Metric) -> String {
    guard metric == .mainQueueBlocksPerEvent, metrics.contains(metric), let division = summary.range(of: "; time ÷ ")
    else { return summary }
    return summary[..<division.lowerBound] + "; a count: main-queue blocks ÷ events, for all N responders together"
  }

  /// The responder counts a run (a `--quick` one if `quick`) measures unless `--n` says otherwise.
  ///
  /// The main-actor scenarios and `actor` stop at 1 000, and at 100 with `--quick`: every repetition waits for its
  /// events to be delivered, and at 1 000 responders a burst is 100 000 deliveries, a good part of a second for
  /// `async-stream`'s tasks (`--n` measures any N).
  func defaultResponderCounts(quick: Bool) -> [Int] {
    guard waitsForDelivery else { return Self.defaultResponderCounts }
    return quick ? [1, 10, 100] : [1, 10, 100, 1000]
  }

  /// The responder counts of most scenarios.
  static let defaultResponderCounts = [1, 10, 100, 1000, 10_000]
}
