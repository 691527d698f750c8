import Broadcasters
import EventBusTesting
import Testing

/// Tasks asleep on a clock until they are cancelled: the sleepers a wait counts.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
struct Sleepers {
  let tasks: [Task<Void, Never>]

  init(on clock: ManualClock, until deadlines: [Duration]) {
    tasks = deadlines.map { deadline in
      Task { try? await clock.sleep(for: deadline) }
    }
  }

  func cancel() {
    for task in tasks { task.cancel() }
  }
}

/// No wait of the clock hangs: each ends at its timeout, failing the test with what it found.
@Suite struct ManualClockWaitTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitingForMoreSleepersThanThereAreFailsAtTheTimeoutNamingTheSleepers() async {
    let clock = ManualClock()
    let sleepers = Sleepers(on: clock, until: [.seconds(10)])
    await clock.waitUntil(sleeperCount: 1)
    let started = ContinuousClock.now
    var met = true
    await withKnownIssue {
      met = await clock.waitUntil(sleeperCount: 2, timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue == "ManualClock: waited 50 ms for exactly 2 sleepers; found 1 sleeper, until 10 s "
          + "(the clock is at 0 s)"
      }
        && issue.sourceLocation?.fileID == "EventBusTestingTests/ManualClockTests.swift"
    }
    #expect(!met)
    #expect(ContinuousClock.now - started < .seconds(30))
    sleepers.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func anExtraSleeperFailsAWaitForAnExactCount() async {
    let clock = ManualClock()
    let sleepers = Sleepers(on: clock, until: [.seconds(2), .seconds(10)])
    await clock.waitUntil(sleeperCountAtLeast: 2)
    await withKnownIssue {
      #expect(await clock.waitUntil(sleeperCount: 1, timeout: .milliseconds(20)) == false)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasSuffix("found 2 sleepers, until 2 s, 10 s (the clock is at 0 s)") }
    }
    sleepers.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func anAtLeastWaitIsMetByMoreSleepersAndWaitsForThemToArrive() async {
    let clock = ManualClock()
    let first = Sleepers(on: clock, until: [.seconds(1), .seconds(2), .seconds(3)])
    #expect(await clock.waitUntil(sleeperCountAtLeast: 2))
    await clock.waitUntil(sleeperCount: 3)
    // Waiting for four: met when a fourth arrives, while the wait suspends.
    let fourth = Task { await clock.waitUntil(sleeperCountAtLeast: 4) }
    let second = Sleepers(on: clock, until: [.seconds(4)])
    #expect(await fourth.value)
    await withKnownIssue {
      #expect(await clock.waitUntil(sleeperCountAtLeast: 5, timeout: .milliseconds(20)) == false)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("for at least 5 sleepers; found 4 sleepers, until 1 s, 2 s, 3 s, 4 s")
      }
    }
    first.cancel()
    second.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aCancelledWaitEndsAtOnceAndRecordsNothing() async {
    let clock = ManualClock()
    let wait = Task { await clock.waitUntil(sleeperCount: 1, timeout: .seconds(600)) }
    wait.cancel()
    // Any issue recorded would fail this test; a wait that ignored the cancellation would hang it for ten minutes.
    #expect(await wait.value == false)
    #expect(clock.sleeperCount == 0)
  }
}
