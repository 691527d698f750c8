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

    // A tick may have been mid-delivery while the tokens were cancelled: compare what every log has.
    let received = logs.map(\.elements)
    let common = received.map(\.count).min() ?? 0
    #expect(common >= 5)
    let first = Array(received[0].prefix(common))
    // Separate timers would tick at different instants; one timer hands everyone the same dates.
    #expect(received.allSatisfy { Array($0.prefix(common)) == first })
    #expect(zip(first, first.dropFirst()).allSatisfy { $0 < $1 })

    let ticksAfterStop = ticks.upstreamEventCount
    usleep(50_000)
    #expect(ticks.upstreamEventCount <= ticksAfterStop + 1)  // at most the tick that was in flight
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
}
