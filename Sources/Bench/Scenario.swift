import BenchHarness

/// What `Bench` measures: one question about event delivery, asked of several contenders at several N.
///
/// The names, metrics and contenders are fixed: reports, `--contender` and `--compare` key on them.
enum Scenario: String, CaseIterable, Sendable {
  /// One event fanned out to N responders by each way of holding them.
  case fanout
  /// One NotificationCenter post with a keyboard-like `userInfo`, reaching N responders.
  case sourceFanout = "source-fanout"
  /// How many upstream (NotificationCenter) subscriptions N live responders cost.
  case upstream
  /// Subscribing and cancelling one responder while N others stay subscribed.
  case subscribeCancel = "subscribe-cancel"
  /// Heap bytes one subscription costs.
  case memory

  /// The command-line and report name.
  var name: String { rawValue }

  var metric: Metric {
    switch self {
    case .fanout, .sourceFanout: .nanosecondsPerDelivery
    case .upstream: .subscriptions
    case .subscribeCancel: .nanosecondsPerCycle
    case .memory: .bytesPerSubscriber
    }
  }

  /// Every contender of the scenario, in report order: the reference points first, the library last.
  var contenders: [ContenderName] {
    switch self {
    case .fanout: [.directCall, .closureArray, .weakBoxLoop, .weakClosureLoop, .output, .outputToken]
    case .sourceFanout: [.perObserver, .broadcaster]
    case .upstream: [.perObserver, .broadcaster]
    case .subscribeCancel: [.perObserver, .output, .broadcaster]
    case .memory: [.perObserver, .output, .outputToken, .broadcaster]
    }
  }

  /// The contender `--compare` measures the others against: hand-written code or Foundation, which this package
  /// does not change, doing the same work in the same repetitions. `nil` for exact counts.
  var reference: ContenderName? {
    switch self {
    case .fanout: .weakBoxLoop
    case .sourceFanout, .subscribeCancel, .memory: .perObserver
    case .upstream: nil
    }
  }

  /// One line for the usage text and the table heading.
  var summary: String {
    switch self {
    case .fanout: "one event delivered to N responders; time ÷ (events × N)"
    case .sourceFanout: "one NotificationCenter post with a keyboard userInfo reaching N responders; time ÷ (posts × N)"
    case .upstream: "upstream NotificationCenter subscriptions held for N live responders"
    case .subscribeCancel: "subscribe then cancel one responder while N stay subscribed"
    case .memory: "heap growth from subscribing N already allocated responders, ÷ N"
    }
  }

  /// The responder counts a run measures unless `--n` says otherwise.
  static let defaultResponderCounts = [1, 10, 100, 1000, 10_000]
}
