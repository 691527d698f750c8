import Broadcasters
import EventBus
import EventBusTestSupport
import EventBusTesting
import Foundation
import Testing

@Suite struct TimerSourceClockTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aTimerOnAManualClockTicksOnlyWhenTheClockReachesEachDeadline() async {
    let clock = ManualClock()
    let ticks = Broadcaster(source: TimerSource(every: .seconds(30), clock: clock))
    let (dates, continuation) = AsyncStream.makeStream(of: Date.self)
    let token = ticks.subscribe { continuation.yield($0) }
    var received = dates.makeAsyncIterator()

    await clock.waitUntil(sleeperCount: 1)
    #expect(clock.deadlines == [.seconds(30)])
    clock.advance(by: .seconds(29))
    #expect(clock.deadlines == [.seconds(30)])  // not due yet: nobody was woken
    #expect(ticks.upstreamEventCount == 0)

    for tick in 1...3 {
      clock.advance(by: tick == 1 ? .seconds(1) : .seconds(30))
      #expect(await received.next() != nil)
      await clock.waitUntil(sleeperCount: 1)
      #expect(clock.deadlines == [.seconds(30 * (tick + 1))])
      #expect(ticks.upstreamEventCount == tick)
    }

    token.cancel()
    await clock.waitUntil(sleeperCount: 0)
    #expect(!ticks.isConnected)
    #expect(ticks.upstreamEventCount == 3)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aTickLaterThanAWholeIntervalDoesNotMakeUpTheTicksItMissed() async {
    let clock = ManualClock()
    let ticks = Broadcaster(source: TimerSource(every: .seconds(10), clock: clock))
    let (dates, continuation) = AsyncStream.makeStream(of: Date.self)
    let token = ticks.subscribe { continuation.yield($0) }
    var received = dates.makeAsyncIterator()
    await clock.waitUntil(sleeperCount: 1)

    clock.advance(by: .seconds(35))
    #expect(await received.next() != nil)
    await clock.waitUntil(sleeperCount: 1)
    #expect(clock.deadlines == [.seconds(45)])
    #expect(ticks.upstreamEventCount == 1)
    token.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theTimerRestartsOnTheClockFromTheNextSubscriber() async {
    let clock = ManualClock()
    let ticks = Broadcaster(source: TimerSource(every: .seconds(5), clock: clock))
    let first = ticks.subscribe { _ in }
    await clock.waitUntil(sleeperCount: 1)
    first.cancel()
    await clock.waitUntil(sleeperCount: 0)
    clock.advance(by: .seconds(2))
    let second = ticks.subscribe { _ in }
    await clock.waitUntil(sleeperCount: 1)
    #expect(clock.deadlines == [.seconds(7)])
    #expect(ticks.connectCount == 2)
    second.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theDefaultClockIsTheContinuousClock() async {
    let ticks = Broadcaster(source: TimerSource(every: .milliseconds(2)))
    let (dates, continuation) = AsyncStream.makeStream(of: Date.self)
    let token = ticks.subscribe { continuation.yield($0) }
    var received = dates.makeAsyncIterator()
    #expect(await received.next() != nil)
    #expect(await received.next() != nil)
    token.cancel()
    #expect(!ticks.isConnected)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(arguments: [
    (Duration.seconds(-3), DispatchTimeInterval.nanoseconds(0)),
    (.milliseconds(1500), .nanoseconds(1_500_000_000)),
    (.seconds(Int64.max), .nanoseconds(Int(Int64.max))),
    (Duration(secondsComponent: .max, attosecondsComponent: .max), .nanoseconds(Int(Int64.max))),
  ])
  func theIntervalIsClampedToWhatAClockCanWaitInsteadOfTrapping(given: Duration, interval: DispatchTimeInterval)
    async
  {
    let source = TimerSource(every: given, clock: ManualClock())
    #expect(source.interval == interval)
    let ticks = Broadcaster(source: source)
    let token = ticks.subscribe { _ in }
    token.cancel()
    #expect(!ticks.isConnected)
  }
}
