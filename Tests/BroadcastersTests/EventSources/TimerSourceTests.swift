import Broadcasters
import Foundation
import Testing

@Suite struct TimerSourceTests {
  @Test func oneTimerTicksTheSameDatesToEverySubscriberAndStopsWithTheLast() async {
    let ticks = Broadcaster(source: TimerSource(interval: .milliseconds(5)))
    let logs = (0..<20).map { _ in Log<Date>() }
    let tokens = logs.map { log in ticks.subscribe { log.append($0) } }
    #expect(await eventually { logs.allSatisfy { $0.count >= 5 } })
    for token in tokens {
      token.cancel()
    }
    #expect(!ticks.isConnected)
    #expect(ticks.connectCount == 1)

    // A subscriber that joined while a tick was being delivered missed that tick (G5), so compare the ticks that
    // every subscriber saw. Separate timers would tick at different instants and share no date at all.
    let received = logs.map(\.elements)
    let shared = received.dropFirst().reduce(Set(received[0])) { $0.intersection($1) }
    #expect(shared.count >= 5)
    #expect(received.allSatisfy { log in zip(log, log.dropFirst()).allSatisfy { $0 < $1 } })

    // The connection was closed before the timer was cancelled: a tick still in flight is not even counted.
    let ticksAfterStop = ticks.upstreamEventCount
    try? await Task.sleep(nanoseconds: 50_000_000)
    #expect(ticks.upstreamEventCount == ticksAfterStop)
  }

  @Test func theTimerRestartsOnTheNextSubscriber() async {
    let ticks = Broadcaster(source: TimerSource(interval: .milliseconds(2)))
    for round in 1...3 {
      let log = Log<Date>()
      let token = ticks.subscribe { log.append($0) }
      #expect(await eventually { log.count >= 2 })
      token.cancel()
      #expect(ticks.connectCount == round)
      #expect(ticks.disconnectCount == round)
    }
  }

  @Test(arguments: [
    DispatchTimeInterval.seconds(-5), .milliseconds(-1), .microseconds(Int.min), .nanoseconds(-1),
  ])
  func aNegativeIntervalOrLeewayCountsAsZeroInsteadOfTrapping(interval: DispatchTimeInterval) async {
    let source = TimerSource(interval: interval, leeway: interval)
    #expect(source.interval == .nanoseconds(0))
    #expect(source.leeway == .nanoseconds(0))
    let ticks = Broadcaster(source: source)
    let log = Log<Date>()
    let token = ticks.subscribe { log.append($0) }
    #expect(await eventually { log.count >= 1 })
    token.cancel()
    #expect(!ticks.isConnected)
  }

  @Test func nonNegativeIntervalsAreKeptAsGiven() {
    let source = TimerSource(interval: .seconds(2), leeway: .milliseconds(10))
    #expect(source.interval == .seconds(2))
    #expect(source.leeway == .milliseconds(10))
    #expect(TimerSource(interval: .never).interval == .never)
  }
}
