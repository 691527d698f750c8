// expected-error: 'holder' used after consume
// The holder is noncopyable: no copy of it outlives the release of the delivery.
@testable import EventBus

func holderKeptPastItsRelease(_ latch: borrowing DeliveryLatch, _ thread: ThreadIdentity) {
  guard let holder = latch.tryClaim(for: thread) else { return }
  let kept = holder
  _ = latch.tryRelease(holder)
  _ = kept
}
