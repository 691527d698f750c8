import Broadcasters
import EventBus
import EventBusTestSupport
import EventBusTesting
import Foundation
import Testing

// The code of RuntimeBehavior.md's "Time and clocks": a timer that takes its clock, driven here by a manual clock.

extension Documentation {
  @Suite struct TimeAndClocks {
    // snippet: clocks-injected-timer
    /// Reloads the inbox every 30 seconds of `clock`'s time: the app passes nothing (`ContinuousClock`), a test passes
    /// a clock it moves by hand.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    final class InboxRefresher {
      let reloads = Output<Date>()
      private let timer: Broadcaster<Date>
      private var subscription: EventSubscription?

      init(clock: some Clock<Duration> = ContinuousClock()) {
        timer = Broadcaster(source: TimerSource(every: .seconds(30), clock: clock))
      }

      func start() {
        subscription = timer.subscribe { [reloads] now in reloads.send(now) }
      }

      func stop() {
        subscription = nil
      }
    }
    // end-snippet

    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func theRefresherReloadsWhenItsClockPassesThirtySecondsAndNeverSleeps() async {
      let clock = ManualClock()
      let refresher = InboxRefresher(clock: clock)
      let (reloads, continuation) = AsyncStream.makeStream(of: Date.self)
      let token = refresher.reloads.subscribe { continuation.yield($0) }
      var reload = reloads.makeAsyncIterator()
      refresher.start()
      await clock.waitUntil(sleeperCount: 1)
      clock.advance(by: .seconds(29))
      #expect(clock.deadlines == [.seconds(30)])
      clock.advance(by: .seconds(1))
      #expect(await reload.next() != nil)
      refresher.stop()
      await clock.waitUntil(sleeperCount: 0)
      token.cancel()
    }
  }
}
