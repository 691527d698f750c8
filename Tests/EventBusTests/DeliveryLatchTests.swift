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
    #expect(!latch.isHeld)
    #expect(latch.claims(for: me))
    #expect(latch.isHeld && latch.isHeld(by: me) && !latch.isHeld(by: other))
    #expect(!latch.claims(for: other), "a held latch cannot be claimed")
    #expect(!latch.releases(by: other), "only the holder lets go")
    #expect(latch.releases(by: me))
    #expect(!latch.isHeld)
    #expect(latch.claims(for: other))
  }

  @Test func workMarkedQueuedMakesTheHoldersLockFreeReleaseFail() {
    let latch = DeliveryLatch()
    #expect(latch.claims(for: me))
    #expect(!latch.claimOrMarkWorkQueued(for: other), "held: the caller queues its work instead")
    #expect(!latch.claimOrMarkWorkQueued(for: other), "marking twice changes nothing")
    #expect(latch.isHeld(by: me), "the flag does not hide the holder")
    #expect(!latch.releases(by: me), "the holder must take the lock and pick the work up")
    latch.settle(holder: me, keeping: true)
    #expect(latch.isHeld(by: me))
    #expect(latch.releases(by: me), "settled with no work queued, it lets go with no lock again")
  }

  @Test func settlingWithoutKeepingFreesTheLatch() {
    let latch = DeliveryLatch()
    #expect(latch.claimOrMarkWorkQueued(for: me), "idle: the caller claims")
    _ = latch.claimOrMarkWorkQueued(for: other)
    latch.settle(holder: me, keeping: false)
    #expect(!latch.isHeld)
    #expect(latch.claims(for: other))
  }

  @Test func anInPlaceListChangeBlocksClaimsUntilItEnds() {
    let latch = DeliveryLatch()
    #expect(latch.beginChangingEntries(), "idle: the change is made in place")
    #expect(!latch.isHeld, "a list change is not a holder")
    #expect(!latch.claims(for: me), "no send claims a list being changed in place")
    latch.endChangingEntries()
    #expect(latch.claims(for: me))
  }

  @Test func aMemberChangeDuringARoundIsStagedAndMarkedQueued() {
    let latch = DeliveryLatch()
    #expect(latch.claims(for: other))
    #expect(!latch.beginChangingEntries(), "held: the change goes to a copy")
    #expect(!latch.releases(by: other), "the holder installs the changed list under the lock")
  }

  @Test func aSendNeedsTheLockWhileATraceIsSet() {
    let latch = DeliveryLatch()
    #expect(!latch.sendNeedsLock)
    latch.setSendNeedsLock(true)
    #expect(latch.sendNeedsLock)
    latch.setSendNeedsLock(false)
    #expect(!latch.sendNeedsLock)
  }

  @Test func aThreadsBitsLeaveTheFlagBitsFree() {
    #expect(DeliveryLatch.bits(of: me) & DeliveryLatch.flags == 0)
    #expect(DeliveryLatch.bits(of: other) & DeliveryLatch.flags == 0)
    #expect(DeliveryLatch.bits(of: me) != DeliveryLatch.bits(of: other))
  }
}
