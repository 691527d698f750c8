import Testing

@testable import Broadcasters

/// The reconnecting source's decisions, step by step, including orders of events too narrow to hit with real tasks.
@Suite struct ReconnectStateMachineTests {
  private struct Failure: Error {}
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static let backoff = ReconnectBackoff(initial: .milliseconds(10), maximum: .milliseconds(50), jitter: 0)

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aSessionThatConnectsThenEndsIsALossAndTheNextOneFollowsIt() {
    var machine = ReconnectStateMachine()
    machine.start()
    let first = machine.beginSession()
    #expect(!first.followsLoss)
    let connected = machine.connected(session: first.number)
    #expect(connected.map { "\($0)" } == "connected")
    let lost = machine.sessionEnded(error: Failure(), stopped: false, backoff: Self.backoff, randomFraction: 0)
    #expect(lost?.retryDelay == .milliseconds(10))
    #expect(machine.statistics.lossCount == 1)
    #expect(!machine.statistics.isConnected)
    let second = machine.beginSession()
    #expect(second.followsLoss)
    let reconnected = machine.connected(session: second.number)
    #expect(reconnected.map { "\($0)" } == "connected again; events sent while disconnected were missed")
    #expect(machine.statistics.reconnectCount == 1)
    let third = machine.beginSession()
    #expect(!third.followsLoss)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func failedAttemptsAfterALossStillFollowTheLossAndGrowTheWait() {
    var machine = ReconnectStateMachine()
    machine.start()
    _ = machine.connected(session: machine.beginSession().number)
    _ = machine.sessionEnded(error: nil, stopped: false, backoff: Self.backoff, randomFraction: 0)
    var waits: [Duration?] = []
    for _ in 0..<4 {
      let attempt = machine.beginSession()
      #expect(attempt.followsLoss)
      waits.append(
        machine.sessionEnded(error: Failure(), stopped: false, backoff: Self.backoff, randomFraction: 0)?.retryDelay)
    }
    #expect(waits == [.milliseconds(20), .milliseconds(40), .milliseconds(50), .milliseconds(50)])
    #expect(machine.statistics.failedAttemptCount == 4)
    #expect(machine.statistics.lossCount == 1)
    let back = machine.beginSession()
    #expect(back.followsLoss)
    _ = machine.connected(session: back.number)
    let secondLoss = machine.sessionEnded(error: nil, stopped: false, backoff: Self.backoff, randomFraction: 0)
    #expect(secondLoss?.retryDelay == .milliseconds(10))
    #expect(machine.statistics.lossCount == 2)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aStoppedSessionIsNeitherALossNorAFailure() {
    var machine = ReconnectStateMachine()
    machine.start()
    _ = machine.connected(session: machine.beginSession().number)
    let change = machine.sessionEnded(
      error: CancellationError(), stopped: true, backoff: Self.backoff, randomFraction: 0)
    #expect(change == nil)
    _ = machine.beginSession()
    let unconnected = machine.sessionEnded(error: nil, stopped: true, backoff: Self.backoff, randomFraction: 0)
    #expect(unconnected == nil)
    var expected = ReconnectStatistics()
    expected.connectCount = 1
    #expect(machine.statistics == expected)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aLateOrRepeatedConnectedReportChangesNothing() {
    var machine = ReconnectStateMachine()
    machine.start()
    let first = machine.beginSession()
    _ = machine.connected(session: first.number)
    #expect(machine.connected(session: first.number) == nil)
    _ = machine.sessionEnded(error: nil, stopped: false, backoff: Self.backoff, randomFraction: 0)
    #expect(machine.connected(session: first.number) == nil)
    #expect(!machine.statistics.isConnected)
    #expect(machine.statistics.connectCount == 1)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func startingAgainForgetsALossThatNoCurrentSubscriberWasThereFor() {
    var machine = ReconnectStateMachine()
    machine.start()
    _ = machine.connected(session: machine.beginSession().number)
    _ = machine.sessionEnded(error: nil, stopped: false, backoff: Self.backoff, randomFraction: 0)
    _ = machine.beginSession()
    _ = machine.sessionEnded(error: nil, stopped: true, backoff: Self.backoff, randomFraction: 0)
    machine.start()
    let fresh = machine.beginSession()
    #expect(!fresh.followsLoss)
    #expect(machine.connected(session: fresh.number).map { "\($0)" } == "connected")
    #expect(machine.statistics.reconnectCount == 0)
  }
}
