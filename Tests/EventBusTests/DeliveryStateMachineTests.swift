import Testing

@testable import EventBus

/// Every transition of the delivery state machine, with values alone: no thread, no lock, no latch. Each row starts a
/// machine, applies the steps before it, then one transition, and compares the action it returned and the state it
/// left, written out as text.
@Suite struct DeliveryStateMachineTests {
  typealias Machine = DeliveryStateMachine<Int>

  /// An input of the machine, named as the test writes it.
  enum Step: CustomStringConvertible {
    case send(Int, claimed: Bool)
    case subscribe(String, claimed: Bool)
    case finishRound
    case wait(String, isDelivering: Bool)
    case cancelWait(String)
    /// Not an input of the machine: the subscriber is removed from the list (under the same lock, by the storage).
    case removeSubscriber(String)

    var description: String {
      switch self {
      case .send(let event, let claimed): "send(\(event), claimed: \(claimed))"
      case .subscribe(let name, let claimed): "subscribe(\(name), claimed: \(claimed))"
      case .finishRound: "finishRound"
      case .wait(let name, let isDelivering): "wait(\(name), isDelivering: \(isDelivering))"
      case .cancelWait(let name): "cancelWait(\(name))"
      case .removeSubscriber(let name): "remove \(name)"
      }
    }
  }

  struct Row: CustomTestStringConvertible, Sendable {
    let name: String
    var replay = 0
    let before: [Step]
    let step: Step
    let action: String
    let state: String

    var testDescription: String { name }
  }

  /// The machine, and the subscribers and waits its steps named.
  struct Run {
    var machine: Machine
    var entries: [String: Output<Int>.EventEntry] = [:]
    var waits: [String: DeliveryWait] = [:]

    init(replay: Int) {
      machine = Machine(replayCount: replay)
    }

    func name(of entry: Entry) -> String {
      entries.first { $0.value === entry }?.key ?? "?"
    }

    func name(of wait: DeliveryWait) -> String {
      waits.first { $0.value === wait }?.key ?? "?"
    }

    func names(_ waits: [DeliveryWait]?) -> String {
      (waits ?? []).map { name(of: $0) }.joined(separator: ",")
    }

    /// Applies `step` and writes out the action it returned.
    mutating func apply(_ step: Step) -> String {
      switch step {
      case .send(let event, let claimed):
        switch machine.send(event, claimed: claimed) {
        case .deliver(let event, let evicted): return "deliver \(event)" + (evicted.map { ", evicted \($0)" } ?? "")
        case .queued: return "queued"
        }
      case .subscribe(let name, let claimed):
        let entry = Output<Int>.EventEntry(route: .handler)
        entries[name] = entry
        switch machine.subscribe(entry, claimed: claimed) {
        case .replay(let events, let entry): return "replay \(Array(events)) to \(self.name(of: entry))"
        case .queued: return "queued"
        }
      case .finishRound:
        switch machine.finishRound() {
        case .deliver(let event, let released):
          return "deliver \(event)" + describe(released)
        case .replay(let events, let entry, let released):
          return "replay \(Array(events)) to \(name(of: entry))" + describe(released)
        case .release(let released):
          return "release" + describe(released)
        }
      case .wait(let name, let isDelivering):
        let wait = DeliveryWait()
        waits[name] = wait
        return "\(machine.wait(wait, isDelivering: isDelivering))"
      case .cancelWait(let name):
        machine.cancel(waits[name]!)
        return "forgotten"
      case .removeSubscriber(let name):
        entries[name]?.isRemoved = true
        return "removed"
      }
    }

    func describe(_ released: Machine.Released) -> String {
      var parts: [String] = []
      if let passed = released.passedWaits { parts.append("passed \(names(passed))") }
      if let evicted = released.evicted { parts.append("evicted \(evicted)") }
      if let dropped = released.droppedReplays {
        parts.append("dropped " + dropped.map { name(of: $0.entry) }.joined(separator: ","))
      }
      return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
    }

    /// The state, written out: `idle`, or what the holder still has to take.
    var state: String {
      switch machine.state {
      case .idle(let backlog):
        return backlog.isEmpty ? "idle" : "idle with a backlog"
      case .delivering(let backlog):
        let events = (0..<backlog.events.count).map {
          backlog.events.storage[(backlog.events.head + $0) % backlog.events.storage.count]!
        }
        let replays = (0..<backlog.replays.count).map {
          backlog.replays.storage[(backlog.replays.head + $0) % backlog.replays.storage.count]!.entry
        }
        let replayNames = replays.map { name(of: $0) }.joined(separator: ", ")
        return "delivering events \(events) replays [\(replayNames)] waits \(backlog.waits.count)"
      case .transitioning:
        return "transitioning"
      }
    }
  }

  static let rows: [Row] = [
    Row(
      name: "a send that claimed is delivered by its sender", before: [], step: .send(1, claimed: true),
      action: "deliver 1", state: "delivering events [] replays [] waits 0"),
    Row(
      name: "a send while another thread holds the delivery is queued for it", before: [],
      step: .send(1, claimed: false), action: "queued", state: "delivering events [1] replays [] waits 0"),
    Row(
      name: "sends queued during a round wait in order", before: [.send(1, claimed: true), .send(2, claimed: false)],
      step: .send(3, claimed: false), action: "queued", state: "delivering events [2, 3] replays [] waits 0"),
    Row(
      name: "the end of a round hands over the oldest queued event",
      before: [.send(1, claimed: true), .send(2, claimed: false), .send(3, claimed: false)], step: .finishRound,
      action: "deliver 2", state: "delivering events [3] replays [] waits 0"),
    Row(
      name: "the end of the last round releases the delivery", before: [.send(1, claimed: true)], step: .finishRound,
      action: "release", state: "idle"),
    Row(
      name: "the end of a lock-free round the machine never saw releases", before: [], step: .finishRound,
      action: "release", state: "idle"),
    Row(
      name: "a send that pushes an event out of the replay window hands it out", replay: 2,
      before: [.send(1, claimed: true), .finishRound, .send(2, claimed: true), .finishRound],
      step: .send(3, claimed: true), action: "deliver 3, evicted 1", state: "delivering events [] replays [] waits 0"),
    Row(
      name: "a queued event evicts from the replay window when it is taken", replay: 1,
      before: [.send(1, claimed: true), .send(2, claimed: false)], step: .finishRound,
      action: "deliver 2; evicted 1", state: "delivering events [] replays [] waits 0"),
    Row(
      name: "a subscriber that claimed is handed the window at once", replay: 2,
      before: [.send(1, claimed: true), .finishRound, .send(2, claimed: true), .finishRound],
      step: .subscribe("late", claimed: true), action: "replay [1, 2] to late",
      state: "delivering events [] replays [] waits 0"),
    Row(
      name: "a subscriber during a round has its window queued", replay: 1,
      before: [.send(1, claimed: true)], step: .subscribe("late", claimed: false), action: "queued",
      state: "delivering events [] replays [late] waits 0"),
    Row(
      name: "a queued window goes ahead of queued events", replay: 1,
      before: [.send(1, claimed: true), .send(2, claimed: false), .subscribe("late", claimed: false)],
      step: .finishRound, action: "replay [1] to late", state: "delivering events [2] replays [] waits 0"),
    Row(
      name: "a window whose subscriber was removed before its turn is dropped", replay: 1,
      before: [.send(1, claimed: true), .subscribe("late", claimed: false), .removeSubscriber("late")],
      step: .finishRound, action: "release; dropped late", state: "idle"),
    Row(
      name: "a wait with nobody delivering keeps nothing", before: [], step: .wait("w", isDelivering: false),
      action: "nothingToWaitFor", state: "idle"),
    Row(
      name: "a wait on a lock-free holder is kept for it", before: [], step: .wait("w", isDelivering: true),
      action: "waitForHolder", state: "delivering events [] replays [] waits 1"),
    Row(
      name: "a wait is not passed while events queued before it wait",
      before: [.send(1, claimed: true), .send(2, claimed: false), .wait("w", isDelivering: true)],
      step: .finishRound, action: "deliver 2", state: "delivering events [] replays [] waits 1"),
    Row(
      name: "a wait is passed once the events queued before it are delivered",
      before: [
        .send(1, claimed: true), .send(2, claimed: false), .wait("w", isDelivering: true), .send(3, claimed: false),
        .finishRound,
      ], step: .finishRound, action: "deliver 3; passed w", state: "delivering events [] replays [] waits 0"),
    Row(
      name: "a holder that releases passes every wait",
      before: [.send(1, claimed: true), .wait("w", isDelivering: true)], step: .finishRound,
      action: "release; passed w", state: "idle"),
    Row(
      name: "a wait behind a queued window is passed after it", replay: 1,
      before: [
        .send(1, claimed: true), .finishRound, .send(2, claimed: true), .subscribe("late", claimed: false),
        .wait("w", isDelivering: true), .finishRound,
      ], step: .finishRound, action: "release; passed w", state: "idle"),
    Row(
      name: "a wait behind a window dropped before its turn is passed when the holder lets go", replay: 1,
      before: [
        .send(1, claimed: true), .subscribe("late", claimed: false), .wait("w", isDelivering: true),
        .removeSubscriber("late"),
      ], step: .finishRound, action: "release; passed w; dropped late", state: "idle"),
    Row(
      name: "a cancelled wait is forgotten, and an empty backlog is idle again",
      before: [.wait("w", isDelivering: true)], step: .cancelWait("w"), action: "forgotten", state: "idle"),
    Row(
      name: "a cancelled wait leaves the rest of the backlog",
      before: [.send(1, claimed: true), .send(2, claimed: false), .wait("w", isDelivering: true)],
      step: .cancelWait("w"), action: "forgotten", state: "delivering events [2] replays [] waits 0"),
  ]

  @Test(arguments: rows)
  func transition(_ row: Row) {
    var run = Run(replay: row.replay)
    for step in row.before {
      _ = run.apply(step)
    }
    let action = run.apply(row.step)
    #expect(action == row.action, "\(row.step)")
    #expect(run.state == row.state, "after \(row.step)")
  }

  @Test func theReplayWindowKeepsTheLastEventsDelivered() {
    var machine = Machine(replayCount: 2)
    for event in 1...5 {
      _ = machine.send(event, claimed: true)
      _ = machine.finishRound()
    }
    #expect(machine.hasReplayWindow)
    #expect(Array(machine.replayWindow.elements) == [4, 5])
    #expect(!Machine(replayCount: 0).hasReplayWindow)
  }

  @Test func pendingCountCountsOnlyEventsQueuedForTheHolder() {
    var machine = Machine(replayCount: 0)
    #expect(machine.pendingCount == 0)
    _ = machine.send(1, claimed: true)
    _ = machine.send(2, claimed: false)
    _ = machine.send(3, claimed: false)
    #expect(machine.pendingCount == 2)
    _ = machine.finishRound()
    #expect(machine.pendingCount == 1)
  }
}
