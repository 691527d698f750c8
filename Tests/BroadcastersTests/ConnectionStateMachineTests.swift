import Testing

@testable import Broadcasters

/// The reconciler protocol, step by step, including interleavings too narrow to hit reliably with threads.
@Suite struct ConnectionStateMachineTests {
  @Test func theFirstChangeMakesTheCallerTheReconcilerAndLaterChangesOnlyLeaveANote() {
    var machine = ConnectionStateMachine()
    let first = machine.membershipChanged()
    let second = machine.membershipChanged()
    let third = machine.membershipChanged()
    #expect(first)
    #expect(!second)
    #expect(!third)
  }

  @Test func startsWhenWantedThenFinishesAndFreesTheRole() {
    var machine = ConnectionStateMachine()
    _ = machine.membershipChanged()
    let start = machine.nextAction(wantsConnection: true)
    #expect(start.name == "start")
    #expect(!machine.isConnected)
    machine.didStart {}
    #expect(machine.isConnected)
    #expect(machine.connectCount == 1)
    let done = machine.nextAction(wantsConnection: true)
    #expect(done.name == "done")
    let claimedAgain = machine.membershipChanged()
    #expect(claimedAgain)
  }

  @Test func stopsWhenNoLongerWantedThenFinishes() {
    var machine = ConnectionStateMachine.connected()
    _ = machine.membershipChanged()
    let stop = machine.nextAction(wantsConnection: false)
    #expect(stop.name == "stop")
    #expect(!machine.isConnected)
    machine.didStop()
    #expect(machine.disconnectCount == 1)
    let done = machine.nextAction(wantsConnection: false)
    #expect(done.name == "done")
  }

  @Test func aChangeNotedAfterTheReconcilerReadTheMembershipMakesItReadAgain() {
    var machine = ConnectionStateMachine.connected()
    // Thread A subscribes, becomes the reconciler and reads "someone is subscribed"...
    let aReconciles = machine.membershipChanged()
    // ...then thread B cancels the last subscription, finds A reconciling, and only leaves a note...
    let bReconciles = machine.membershipChanged()
    #expect(aReconciles)
    #expect(!bReconciles)
    // ...so A, finding the connection consistent with what it read, must read again instead of finishing.
    let afterStaleRead = machine.nextAction(wantsConnection: true)
    #expect(afterStaleRead.name == "recheck", "a membership change was lost")
    let afterFreshRead = machine.nextAction(wantsConnection: false)
    #expect(afterFreshRead.name == "stop")
    machine.didStop()
    let last = machine.nextAction(wantsConnection: false)
    #expect(last.name == "done")
  }

  @Test func releaseHandsOverTheLiveConnectionsStopActionOnce() {
    var machine = ConnectionStateMachine()
    let whileDisconnected = machine.release()
    #expect(whileDisconnected == nil)
    _ = machine.membershipChanged()
    _ = machine.nextAction(wantsConnection: true)
    let stopped = Counter()
    machine.didStart { stopped.increment() }
    machine.release()?()
    let again = machine.release()
    #expect(stopped.count == 1)
    #expect(again == nil)
    #expect(!machine.isConnected)
  }
}

extension ConnectionStateMachine {
  /// A machine whose source is started and whose reconciler has finished.
  fileprivate static func connected() -> ConnectionStateMachine {
    var machine = ConnectionStateMachine()
    _ = machine.membershipChanged()
    _ = machine.nextAction(wantsConnection: true)
    machine.didStart {}
    _ = machine.nextAction(wantsConnection: true)
    return machine
  }
}

extension ConnectionStateMachine.Action {
  fileprivate var name: String {
    switch self {
    case .start: "start"
    case .stop: "stop"
    case .recheck: "recheck"
    case .done: "done"
    }
  }
}
