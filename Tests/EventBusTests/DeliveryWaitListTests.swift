import Testing

@testable import EventBus

/// The waits a consumer keeps: a wait is passed once, and not before, the consumer has finished the item it was
/// working on and every item queued when the wait came. (The machine's transitions for a wait on the holder of the
/// delivery are rows of `DeliveryStateMachineTests`.)
@Suite struct DeliveryWaitListTests {
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
}
