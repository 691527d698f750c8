import Testing

@testable import Broadcasters

@Suite struct KeyedSourceStateMachineTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private typealias Machine = KeyedSourceStateMachine<String, String>

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static let noJitter = ReconnectBackoff(initial: .milliseconds(10), maximum: .milliseconds(40), jitter: 0)

  private struct Failure: Error {}

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static func describe(_ action: Machine.Action) -> String {
    switch action {
    case .open(let number): "open \(number)"
    case .attach(let key, let sink, let generation): "attach \(key) \(sink) \(generation)"
    case .detach(let key): "detach \(key)"
    case .report(let change): "report \(change)"
    case .close: "close"
    case .sleep(let delay): "sleep \(delay)"
    case .wait: "wait"
    case .exit: "exit"
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func onlyTheFirstWantStartsADriverAndTheDriverExitsWithNoKeyWanted() {
    var machine = Machine()
    #expect(machine.want("a", sink: "sink-a") == (1, true))
    #expect(machine.want("b", sink: "sink-b") == (2, false))
    #expect(machine.unwant("a", generation: 1) == "sink-a")
    #expect(machine.unwant("b", generation: 2) == "sink-b")
    #expect(Self.describe(machine.nextAction()) == "exit")
    #expect(machine.want("a", sink: "sink-a") == (3, true))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func anUnwantOfAnEarlierGenerationLeavesTheKeyWanted() {
    var machine = Machine()
    _ = machine.want("a", sink: "old")
    _ = machine.want("a", sink: "new")
    #expect(machine.unwant("a", generation: 1) == nil)
    #expect(machine.isWanted("a"))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aSessionAttachesEveryKeyThenReportsConnectedThenWaits() {
    var machine = Machine()
    _ = machine.want("a", sink: "sink-a")
    #expect(Self.describe(machine.nextAction()) == "open 1")
    machine.opened(session: 1)
    #expect(Self.describe(machine.nextAction()) == "attach a sink-a 1")
    #expect(!machine.statistics.isConnected)
    machine.attached("a", generation: 1, session: 1)
    #expect(Self.describe(machine.nextAction()) == "report connected")
    #expect(machine.statistics.isConnected)
    #expect(Self.describe(machine.nextAction()) == "wait")
    _ = machine.unwant("a", generation: 1)
    #expect(Self.describe(machine.nextAction()) == "detach a")
    machine.detached("a", session: 1)
    #expect(Self.describe(machine.nextAction()) == "close")
    #expect(Self.describe(machine.nextAction()) == "exit")
    #expect(machine.statistics.attachCount == 1)
    #expect(machine.statistics.detachCount == 1)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aLostSessionIsClosedThenReopenedAfterTheBackoffAndEveryKeyAttachedBeforeConnected() {
    var machine = Machine()
    _ = machine.want("a", sink: "sink-a")
    _ = machine.want("b", sink: "sink-b")
    _ = machine.nextAction()
    machine.opened(session: 1)
    for _ in 0..<2 {
      guard case .attach(let key, _, let generation) = machine.nextAction() else {
        Issue.record("expected an attach")
        return
      }
      machine.attached(key, generation: generation, session: 1)
    }
    _ = machine.nextAction()
    let lost = machine.sessionEnded(session: 1, error: Failure(), backoff: Self.noJitter, randomFraction: 0)
    #expect(lost?.retryDelay == .milliseconds(10))
    #expect(!machine.statistics.isConnected)
    #expect(machine.statistics.lossCount == 1)
    // A second report of the same end changes nothing.
    #expect(machine.sessionEnded(session: 1, error: nil, backoff: Self.noJitter, randomFraction: 0) == nil)
    #expect(Self.describe(machine.nextAction()) == "close")
    #expect(Self.describe(machine.nextAction()) == "sleep 0.01 seconds")
    #expect(Self.describe(machine.nextAction()) == "open 2")
    machine.opened(session: 2)
    var attachedAgain: Set<String> = []
    while case .attach(let key, _, let generation) = machine.nextAction() {
      attachedAgain.insert(key)
      #expect(!machine.statistics.isConnected)
      machine.attached(key, generation: generation, session: 2)
    }
    #expect(attachedAgain == ["a", "b"])
    #expect(machine.statistics.isConnected)
    #expect(machine.statistics.reconnectCount == 1)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func failedOpensWaitLongerEachTimeUpToTheMaximum() {
    var machine = Machine()
    _ = machine.want("a", sink: "sink-a")
    var waits: [Duration?] = []
    for _ in 0..<4 {
      _ = machine.nextAction()
      waits.append(machine.openFailed(error: Failure(), backoff: Self.noJitter, randomFraction: 0).retryDelay)
      _ = machine.nextAction()
    }
    #expect(waits == [.milliseconds(20), .milliseconds(40), .milliseconds(40), .milliseconds(40)])
    #expect(machine.statistics.failedAttemptCount == 4)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aStepReportedForAnEarlierSessionChangesNothing() {
    var machine = Machine()
    _ = machine.want("a", sink: "sink-a")
    _ = machine.nextAction()
    machine.opened(session: 1)
    _ = machine.sessionEnded(session: 1, error: nil, backoff: Self.noJitter, randomFraction: 0)
    machine.attached("a", generation: 1, session: 1)
    #expect(machine.statistics.attachCount == 0)
    #expect(machine.statistics.failedAttemptCount == 1)
  }
}
