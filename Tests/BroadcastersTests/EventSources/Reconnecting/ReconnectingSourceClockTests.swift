import Broadcasters
import EventBus
import EventBusTestSupport
import EventBusTesting
import Testing

@Suite struct ReconnectingSourceClockTests {
  struct Refused: Error {}

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theBackoffWaitsOnTheGivenClockAndTheNextAttemptStartsOnlyWhenItReachesTheDeadline() async {
    let clock = ManualClock()
    let (attempts, attempted) = AsyncStream.makeStream(of: Void.self)
    let backoff = ReconnectBackoff(initial: .seconds(5), maximum: .seconds(60), multiplier: 2, jitter: 0)
    let source = ReconnectingSource<Int>(backoff: backoff, clock: clock) { _ in
      attempted.yield()
      throw Refused()
    }
    let values = Broadcaster(source: source)
    let token = values.subscribe { _ in }
    var attempt = attempts.makeAsyncIterator()

    // Failed attempts wait 10, 20, 40, then 60 s (the maximum): each deadline counted from the previous one.
    var deadline = Duration.zero
    for (number, wait) in zip(1..., [10, 20, 40, 60, 60]) {
      #expect(await attempt.next() != nil)
      await clock.waitUntil(sleeperCount: 1)
      deadline += .seconds(wait)
      #expect(clock.deadlines == [deadline])
      #expect(source.statistics.failedAttemptCount == number)
      clock.advance(by: .seconds(wait) - .milliseconds(1))
      #expect(clock.deadlines == [deadline])  // not due: no attempt started
      #expect(source.statistics.failedAttemptCount == number)
      clock.advance(by: .milliseconds(1))
    }

    #expect(await attempt.next() != nil)
    token.cancel()
    await clock.waitUntil(sleeperCount: 0)
    #expect(!values.isConnected)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aLostConnectionWaitsTheInitialWaitOnTheClockBeforeReconnecting() async {
    let clock = ManualClock()
    let (sessions, started) = AsyncStream.makeStream(of: Bool.self)
    let backoff = ReconnectBackoff(initial: .seconds(3), jitter: 0)
    let source = ReconnectingSource<Int>(backoff: backoff, clock: clock) { session in
      started.yield(session.followsLoss)
      session.connected()
      throw Refused()  // connected, then lost
    }
    let values = Broadcaster(source: source)
    let token = values.subscribe { _ in }
    var session = sessions.makeAsyncIterator()

    #expect(await session.next() == false)
    await clock.waitUntil(sleeperCount: 1)
    #expect(clock.deadlines == [.seconds(3)])
    #expect(source.statistics.lossCount == 1)
    clock.advance(by: .seconds(3))
    #expect(await session.next() == true)
    await clock.waitUntil(sleeperCount: 1)
    #expect(clock.deadlines == [.seconds(6)])
    #expect(source.statistics.lossCount == 2)
    token.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }
}
