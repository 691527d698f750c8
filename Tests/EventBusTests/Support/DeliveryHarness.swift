@testable import EventBus

/// An output's locked state without the output: a subscriber list and a delivery state machine, driven step by step
/// as the output drives them under its lock, so that each transition can be tested alone.
struct DeliveryHarness {
  typealias Machine = DeliveryStateMachine<Int>
  typealias Step = Machine.Step

  final class Subscriber: Entry {
    let name: String

    init(_ name: String) {
      self.name = name
    }
  }

  var list = SubscriberList()
  var machine: Machine

  init(replay: Int = 0) {
    machine = Machine(replayCount: replay)
    // Set, so that a change that adds or removes subscribers hands it out (`Change.isChanged`).
    list.membershipObserver = {}
  }

  /// A harness with `names` subscribed, in order, from the calling thread.
  static func subscribed(_ names: String..., replay: Int = 0) -> (DeliveryHarness, [Subscriber]) {
    var harness = DeliveryHarness(replay: replay)
    let subscribers = names.map(Subscriber.init)
    for subscriber in subscribers {
      _ = harness.subscribe(subscriber, from: .current)
    }
    return (harness, subscribers)
  }

  mutating func send(_ event: Int, from thread: ThreadIdentity) -> Step {
    DeliverySteps.send(event, from: thread, machine: &machine, subscribers: &list)
  }

  mutating func finishRound(deadFound: Bool = false, by thread: ThreadIdentity) -> Step {
    DeliverySteps.finishRound(
      deadFound: deadFound, holder: DeliveryHolder(thread: thread), machine: &machine, subscribers: &list)
  }

  mutating func finishReplay(to entry: Entry, deadFound: Bool = false, by thread: ThreadIdentity) -> Step {
    DeliverySteps.finishReplay(
      to: entry, deadFound: deadFound, holder: DeliveryHolder(thread: thread), machine: &machine, subscribers: &list)
  }

  /// Subscribes as an output with a replay window does; one without calls the list alone (`list.add`).
  mutating func subscribe(_ entry: Entry, from thread: ThreadIdentity) -> Step {
    DeliverySteps.subscribe(entry, at: CallSite(), from: thread, machine: &machine, subscribers: &list)
  }

  /// The names of `entries`, `-` for a removed slot.
  static func names(_ entries: EntryList) -> [String] {
    entries.map { ($0 as? Subscriber)?.name ?? "-" }
  }

  var roundNames: [String] { Self.names(list.roundEntries) }
  var currentNames: [String] { Self.names(list.entries) }
}

// The list's bookkeeping is the base entry's; the name is immutable.
extension DeliveryHarness.Subscriber: @unchecked Sendable {}

extension DeliveryStateMachine.Step {
  var isIdle: Bool {
    if case .idle = action { return true }
    return false
  }

  /// The event and entries of a `.deliver` action.
  var delivery: (event: Event, entries: EntryList)? {
    if case .deliver(let event, let entries) = action { return (event, entries) }
    return nil
  }

  /// The events and entry of a `.replay` action.
  var replay: (events: [Event], entry: Entry)? {
    if case .replay(let events, let entry) = action { return (Array(events), entry) }
    return nil
  }
}

extension SubscriberList.Change {
  /// Whether subscribers were added or removed (the observer is handed out only then).
  var isChanged: Bool { membershipObserver != nil }
}

extension DeliveryLatch {
  /// `tryClaim(for:)`, for a test that plays the holder's part: whether the claim succeeded. The holder it made is
  /// dropped; the test then acts as `thread`.
  func claims(for thread: ThreadIdentity) -> Bool {
    tryClaim(for: thread) != nil
  }

  /// `tryRelease(_:)` by the holder `thread`, for a test that plays the holder's part.
  func releases(by thread: ThreadIdentity) -> Bool {
    tryRelease(DeliveryHolder(thread: thread))
  }
}
