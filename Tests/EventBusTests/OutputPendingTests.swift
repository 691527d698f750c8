import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G2's cost: the thread that is delivering also delivers what other threads queue meanwhile, and the queue has no
/// bound. `pendingCount` shows its length.
@Suite struct OutputPendingTests {
  @Test func eventsSentDuringADeliveryAreCountedAndDeliveredByTheDeliveringThread() {
    let output = Output<Int>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let delivered = Log<Int>()
    let deliveringThreads = LockedState<[ThreadIdentity]>([])
    let token = output.subscribe { value in
      if value == 0 {
        entered.signal()
        _ = release.wait(timeout: .now() + watchdogTimeout)
      }
      delivered.append(value)
      deliveringThreads.withLock { $0.append(.current) }
    }
    let firstSender = LockedState<ThreadIdentity?>(nil)
    let firstSendReturned = DispatchSemaphore(value: 0)
    Thread {
      firstSender.withLock { $0 = .current }
      output.send(0)
      firstSendReturned.signal()
    }.start()
    #expect(entered.wait(timeout: .now() + watchdogTimeout) == .success)

    #expect(output.pendingCount == 0)
    for value in 1...1_000 {
      output.send(value)  // queued: returns at once
    }
    #expect(output.pendingCount == 1_000, "every event sent during the delivery waits, without bound")
    #expect(delivered.count == 0)
    #expect(
      firstSendReturned.wait(timeout: .now()) == .timedOut, "the first send returned while its handler was held")

    release.signal()
    #expect(firstSendReturned.wait(timeout: .now() + watchdogTimeout) == .success)
    // The first sender's `send(0)` returned only after delivering the 1 000 events other threads queued.
    #expect(delivered.elements == Array(0...1_000))
    #expect(output.pendingCount == 0)
    let sender = firstSender.withLock { $0 }
    #expect(deliveringThreads.withLock { $0 }.allSatisfy { $0 == sender })
    token.cancel()
  }

  @Test func aSendFromInsideAHandlerIsCountedUntilTheCurrentEventReachedEverySubscriber() {
    let output = Output<Int>()
    let seen = LockedState<[Int]>([])
    let first = output.subscribe { value in
      if value == 1 { output.send(2) }
      seen.withLock { $0.append(output.pendingCount) }
    }
    let second = output.subscribe { _ in seen.withLock { $0.append(output.pendingCount) } }
    output.send(1)
    // Event 1: both handlers see event 2 waiting; event 2: nothing waits.
    #expect(seen.withLock { $0 } == [1, 1, 0, 0])
    #expect(output.pendingCount == 0)
    first.cancel()
    second.cancel()
  }
}
