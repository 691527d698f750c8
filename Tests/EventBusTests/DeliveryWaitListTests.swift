import Testing

@testable import EventBus

/// The waits a consumer keeps, and the machine's transitions for a wait on the holder of the delivery, one at a time:
/// a wait is passed once, and not before, the consumer has finished the item it was working on and every item queued
/// when the wait came.
@Suite struct DeliveryWaitListTests {
  private typealias Harness = DeliveryHarness
  private let me = ThreadIdentity.current
  private let other = parkedThreadIdentity

  @Test func aWaitIsPassedOnlyAfterTheItemInHandAndEveryItemQueuedBehindIt() {
    var list = DeliveryWaitList()
    let wait = DeliveryWait()
    list.add(wait, behind: 2)
    #expect(list.advance(takingAnother: true) == nil, "finished the item in hand, took the first queued")
    #expect(list.advance(takingAnother: true) == nil, "finished the first queued, took the second")
    #expect(list.advance(takingAnother: true)?.map(ObjectIdentifier.init) == [ObjectIdentifier(wait)])
    #expect(list.isEmpty)
  }

  @Test func aConsumerThatStopsPassesEveryWait() {
    var list = DeliveryWaitList()
    list.add(DeliveryWait(), behind: 0)
    list.add(DeliveryWait(), behind: 5)
    #expect(list.advance(takingAnother: false)?.count == 2)
    #expect(list.isEmpty)
  }

  @Test func aRemovedWaitIsNeverPassed() {
    var list = DeliveryWaitList()
    let kept = DeliveryWait()
    let removed = DeliveryWait()
    list.add(kept, behind: 0)
    list.add(removed, behind: 0)
    list.remove(removed)
    #expect(list.advance(takingAnother: false)?.map(ObjectIdentifier.init) == [ObjectIdentifier(kept)])
  }

  @Test func aWaitOnAnIdleOutputKeepsNothing() {
    var (harness, _) = Harness.subscribed("a")
    let wait = DeliveryWait()
    #expect(!DeliverySteps.wait(wait, machine: &harness.machine, subscribers: harness.list))
    #expect(harness.machine.waits.isEmpty)
    #expect(!harness.list.isDelivering, "the wait claims nothing")
  }

  @Test func aWaitOnAHeldDeliveryIsPassedAfterTheEventsQueuedWhenItCame() {
    var (harness, _) = Harness.subscribed("a")
    _ = harness.send(1, from: me)
    _ = harness.send(2, from: other)
    let wait = DeliveryWait()
    #expect(DeliverySteps.wait(wait, machine: &harness.machine, subscribers: harness.list))
    _ = harness.send(3, from: other)  // after the wait: not waited for
    var step = harness.finishRound(by: me)  // round 1 over, event 2 taken
    #expect(step.delivery?.event == 2)
    #expect(step.passedWaits == nil, "event 2 is not delivered yet")
    step = harness.finishRound(by: me)  // round 2 over, event 3 taken
    #expect(step.delivery?.event == 3)
    #expect(step.passedWaits.map { $0.map(ObjectIdentifier.init) } == [ObjectIdentifier(wait)])
    #expect(harness.finishRound(by: me).isIdle)
  }

  @Test func aWaitOnAHeldDeliveryMakesTheLockFreeReleaseFail() {
    var (harness, _) = Harness.subscribed("a")
    _ = harness.send(1, from: me)
    #expect(DeliverySteps.wait(DeliveryWait(), machine: &harness.machine, subscribers: harness.list))
    let released = harness.list.latch.tryRelease(DeliveryHolder(thread: me))
    #expect(!released, "the holder must take the lock")
    let step = harness.finishRound(by: me)
    #expect(step.isIdle)
    #expect(step.passedWaits?.count == 1)
    #expect(harness.machine.waits.isEmpty)
  }

  @Test func aWaitBehindAQueuedReplayIsPassedAfterIt() {
    var (harness, _) = Harness.subscribed("a", replay: 1)
    _ = harness.send(1, from: me)
    _ = harness.finishRound(by: me)
    _ = harness.send(2, from: me)
    let late = Harness.Subscriber("late")
    #expect(harness.subscribe(late, from: other).isIdle, "the replay waits for the holder")
    let wait = DeliveryWait()
    #expect(DeliverySteps.wait(wait, machine: &harness.machine, subscribers: harness.list))
    let replay = harness.finishRound(by: me)
    #expect(replay.replay?.entry === late)
    #expect(replay.passedWaits == nil)
    let end = harness.finishReplay(to: late, by: me)
    #expect(end.isIdle)
    #expect(end.passedWaits?.count == 1)
  }

  @Test func aWaitBehindAReplayCancelledBeforeItsTurnIsPassedWhenTheHolderLetsGo() {
    var (harness, _) = Harness.subscribed("a", replay: 1)
    #expect(harness.send(1, from: me).delivery != nil)
    let late = Harness.Subscriber("late")
    _ = harness.subscribe(late, from: other)
    let wait = DeliveryWait()
    #expect(DeliverySteps.wait(wait, machine: &harness.machine, subscribers: harness.list))
    _ = harness.list.cancel(late, from: other)
    let end = harness.finishRound(by: me)
    #expect(end.isIdle, "the cancelled replay is dropped, nothing else waits")
    #expect(end.passedWaits?.count == 1, "a holder that lets go keeps no wait")
    #expect(harness.machine.waits.isEmpty)
  }
}
