import Broadcasters
import Dispatch
import EventBus
import EventBusTestSupport
import Testing

/// `waitUntilDelivered()` on a broadcaster: what its source handed over reaches every subscriber before it returns.
@Suite struct BroadcasterWaitingTests {
  @Test func theWaitReturnsOnceAQueueSubscriberHasHandledWhatTheSourceSent() async throws {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let queue = DispatchQueue(label: "broadcaster-waiting")
    let log = Log<Int>()
    let token = broadcaster.subscribe(on: .queue(queue)) { log.append($0) }
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }  // the queue is busy: the deliveries wait behind this block
    #expect(probe.emit(1))
    #expect(probe.emit(2))

    let returned = Log<Bool>()
    let wait = Task {
      try await broadcaster.waitUntilDelivered()
      returned.append(true)
    }
    // The events are queued behind the blocked block, not delivered: the wait must not have returned.
    try await Task.sleep(nanoseconds: 20_000_000)
    #expect(returned.elements.isEmpty)
    #expect(log.elements.isEmpty)
    gate.signal()
    try await wait.value
    #expect(log.elements == [1, 2])
    #expect(returned.elements == [true])
    token.cancel()
  }

  @Test func withNothingInFlightTheWaitReturnsAtOnce() async throws {
    let (broadcaster, _) = Broadcaster<Int>.recording()
    try await broadcaster.waitUntilDelivered()
    let token = broadcaster.subscribe { _ in }
    try await broadcaster.waitUntilDelivered()
    token.cancel()
  }

  @Test func aCancelledWaitThrows() async {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let queue = DispatchQueue(label: "broadcaster-waiting-cancel")
    let gate = DispatchSemaphore(value: 0)
    let token = broadcaster.subscribe(on: .queue(queue)) { _ in }
    queue.async { gate.wait() }
    probe.emit(1)
    let wait = Task { try await broadcaster.waitUntilDelivered() }
    wait.cancel()
    await #expect(throws: CancellationError.self) { try await wait.value }
    gate.signal()
    token.cancel()
  }
}
