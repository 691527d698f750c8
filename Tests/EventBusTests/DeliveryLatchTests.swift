import Foundation
import Testing

@testable import EventBus

/// The word a lock-free `send` claims and lets go, and what the lock holders do to it: every transition, one at a
/// time.
@Suite struct DeliveryLatchTests {
  private let me = ThreadIdentity.current
  private let other = parkedThreadIdentity

  @Test func anIdleLatchIsClaimedOnceAndLetGoByItsHolder() {
    let latch = DeliveryLatch()
    #expect(Bool(!latch.isHeld))
    guard let holder = latch.tryClaim(for: me) else {
      Issue.record("the claim failed")
      return
    }
    #expect(Bool(latch.isHeld && latch.isHeld(by: me) && !latch.isHeld(by: other)))
    #expect(Bool(claims(latch.tryClaim(for: other)) == false), "a held latch cannot be claimed")
    let released = latch.tryRelease(holder)
    #expect(Bool(released))
    #expect(Bool(!latch.isHeld))
    #expect(Bool(claims(latch.tryClaim(for: other))))
  }

  @Test func workMarkedQueuedMakesTheHoldersLockFreeReleaseFail() {
    let latch = DeliveryLatch()
    guard let holder = latch.tryClaim(for: me) else {
      Issue.record("the claim failed")
      return
    }
    #expect(Bool(!claims(latch.claimOrMarkWorkQueued(for: other))), "held: the caller queues its work instead")
    #expect(Bool(!claims(latch.claimOrMarkWorkQueued(for: other))), "marking twice changes nothing")
    #expect(Bool(latch.isHeld(by: me)), "the flag does not hide the holder")
    let releasedWithWorkQueued = latch.tryRelease(holder)
    #expect(Bool(!releasedWithWorkQueued), "the holder must take the lock and pick the work up")
    latch.settle(holder, keeping: true)
    #expect(Bool(latch.isHeld(by: me)))
    let released = latch.tryRelease(holder)
    #expect(Bool(released), "settled with no work queued, it lets go with no lock again")
  }

  @Test func settlingWithoutKeepingFreesTheLatch() {
    let latch = DeliveryLatch()
    guard let holder = latch.claimOrMarkWorkQueued(for: me) else {
      Issue.record("idle: the caller claims")
      return
    }
    _ = latch.claimOrMarkWorkQueued(for: other)
    latch.settle(holder, keeping: false)
    #expect(Bool(!latch.isHeld))
    #expect(Bool(claims(latch.tryClaim(for: other))))
  }

  @Test func onlyTheHoldersOwnThreadIsGivenTheHolderBack() {
    let latch = DeliveryLatch()
    #expect(Bool(!claims(latch.holder(ifHeldBy: me))), "nobody holds the delivery")
    guard let holder = latch.tryClaim(for: me) else {
      Issue.record("the claim failed")
      return
    }
    #expect(Bool(!claims(latch.holder(ifHeldBy: other))))
    guard let again = latch.holder(ifHeldBy: me) else {
      Issue.record("the claim failed")
      return
    }
    #expect(Bool(again.thread == holder.thread))
    latch.settle(holder, keeping: false)
  }

  @Test func anInPlaceListChangeBlocksClaimsUntilItEnds() {
    let latch = DeliveryLatch()
    #expect(Bool(latch.beginChangingEntries()), "idle: the change is made in place")
    #expect(Bool(!latch.isHeld), "a list change is not a holder")
    #expect(Bool(!claims(latch.tryClaim(for: me))), "no send claims a list being changed in place")
    latch.endChangingEntries()
    #expect(Bool(claims(latch.tryClaim(for: me))))
  }

  @Test func aMemberChangeDuringARoundIsStagedAndMarkedQueued() {
    let latch = DeliveryLatch()
    guard let holder = latch.tryClaim(for: me) else {
      Issue.record("the claim failed")
      return
    }
    #expect(Bool(!latch.beginChangingEntries()), "held: the change goes to a copy")
    let released = latch.tryRelease(holder)
    #expect(Bool(!released), "the holder installs the changed list under the lock")
  }

  @Test func aSendNeedsTheLockWhileATraceIsSetOrAReplayWindowIsKept() {
    let latch = DeliveryLatch()
    #expect(Bool(!latch.sendNeedsLock))
    latch.setSendNeedsLock(true, for: DeliveryLatch.traceReason)
    #expect(Bool(latch.sendNeedsLock))
    latch.setSendNeedsLock(true, for: DeliveryLatch.replayWindowReason)
    latch.setSendNeedsLock(false, for: DeliveryLatch.traceReason)
    #expect(Bool(latch.sendNeedsLock), "clearing the trace keeps the replay window's reason")
    latch.setSendNeedsLock(false, for: DeliveryLatch.replayWindowReason)
    #expect(Bool(!latch.sendNeedsLock))
  }

  @Test func aThreadsBitsLeaveTheFlagBitsFree() {
    #expect(DeliveryLatch.bits(of: me) & DeliveryLatch.flags == 0)
    #expect(DeliveryLatch.bits(of: other) & DeliveryLatch.flags == 0)
    #expect(DeliveryLatch.bits(of: me) != DeliveryLatch.bits(of: other))
  }

  /// Whether a claim made a holder; the holder is dropped, and the latch left as the claim left it.
  private func claims(_ holder: consuming DeliveryHolder?) -> Bool {
    holder != nil
  }
}
