import Broadcasters
import EventBusTestSupport
import EventBusTesting
import Foundation
import Testing

/// A count that a test reads without suspending, so that reading it gives no other task a turn.
final class Tally: Sendable {
  private let value = LockedState(0)
  var count: Int { value.withLock { $0 } }
  func increment() { value.withLock { $0 += 1 } }
}

/// An actor a woken task hops to before it finishes.
actor Hop {
  func touch() {}
}

/// The clock's settling steps: each returns once what it woke has run, without the test waiting for the effect.
@Suite struct ManualClockRunTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func runForWakesATimerAtEachDeadlineAndItsSubscribersHaveHandledEveryTickWhenItReturns() async {
    let clock = ManualClock()
    let ticks = Broadcaster(source: TimerSource(every: .seconds(10), clock: clock))
    let recorder = EventRecorder(ticks)
    await clock.waitUntil(sleeperCount: 1)

    #expect(await clock.run(for: .seconds(30)))
    #expect(recorder.count == 3)  // read at once: nothing to wait for
    #expect(clock.now.offset == .seconds(30))
    #expect(clock.deadlines == [.seconds(40)])
    #expect(await clock.run(for: .seconds(5)))
    #expect(recorder.count == 3)
    #expect(clock.now.offset == .seconds(35))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aWokenTaskThatHopsToAnActorAndEndsHasRunWhenRunForReturns() async {
    let clock = ManualClock()
    let hop = Hop()
    let finished = Tally()
    let task = Task {
      try? await clock.sleep(for: .seconds(5))
      await hop.touch()
      await hop.touch()
      finished.increment()
    }
    await clock.waitUntil(sleeperCount: 1)
    #expect(await clock.run(for: .seconds(5)))
    #expect(finished.count == 1)
    await task.value
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func runToNextDeadlineMovesTheTimeToTheEarliestSleeperOnly() async {
    let clock = ManualClock()
    let woken = Tally()
    let tasks = [Duration.seconds(7), .seconds(3)].map { wait in
      Task {
        try? await clock.sleep(for: wait)
        woken.increment()
      }
    }
    await clock.waitUntil(sleeperCount: 2)
    #expect(await clock.runToNextDeadline())
    #expect(clock.now.offset == .seconds(3))
    #expect(woken.count == 1)
    #expect(clock.deadlines == [.seconds(7)])
    #expect(await clock.runToNextDeadline())
    #expect(woken.count == 2)
    for task in tasks { await task.value }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func runMovesFromDeadlineToDeadlineUntilNoSleeperIsLeft() async {
    let clock = ManualClock()
    let woken = Tally()
    // Sleeps three times, 2 s each, then ends.
    let task = Task {
      for _ in 0..<3 {
        try? await clock.sleep(for: .seconds(2))
        woken.increment()
      }
    }
    await clock.waitUntil(sleeperCount: 1)
    #expect(await clock.run())
    #expect(woken.count == 3)
    #expect(clock.now.offset == .seconds(6))
    #expect(clock.sleeperCount == 0)
    await task.value
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func runFailsAtItsTimeoutWhenATimerAlwaysSleepsAgain() async {
    let clock = ManualClock()
    let ticks = Broadcaster(source: TimerSource(every: .seconds(1), clock: clock))
    let token = ticks.subscribe { _ in }
    await clock.waitUntil(sleeperCount: 1)
    await withKnownIssue {
      #expect(await clock.run(timeout: .milliseconds(50)) == false)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("ManualClock: run() found a sleeper after every step for 50 ms") }
    }
    token.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func runToNextDeadlineWithoutASleeperFailsAtItsTimeout() async {
    let clock = ManualClock()
    await withKnownIssue {
      #expect(await clock.runToNextDeadline(timeout: .milliseconds(20)) == false)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("for at least 1 sleeper; found no sleeper") }
    }
    #expect(clock.now.offset == .zero)
  }
}
