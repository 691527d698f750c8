import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// An actor subscribed with a handler isolated to it: in order, one task at a time, weakly held, cancel drops what
/// waits, and its backlog is visible.
@Suite struct ActorResponderTests {
  actor Store {
    private(set) var received: [Int] = []
    /// Handlers running at this moment: more than one would mean two tasks handing events over at once.
    private var running = 0
    private(set) var mostRunningAtOnce = 0
    private var gate: CheckedContinuation<Void, Never>?
    private var isGateClosed = false

    func apply(_ event: Int) async {
      running += 1
      mostRunningAtOnce = max(mostRunningAtOnce, running)
      if isGateClosed {
        await withCheckedContinuation { gate = $0 }
      }
      // A suspension point: with a second task handing events over, the actor would run its handler meanwhile.
      await Task.yield()
      received.append(event)
      running -= 1
    }

    func closeGate() { isGateClosed = true }

    func openGate() {
      isGateClosed = false
      gate?.resume()
      gate = nil
    }

    var isWaitingAtGate: Bool { gate != nil }
  }

  @Test func eventsFromManyThreadsReachTheActorInOrderOneAtATime() async throws {
    let output = Output<Int>()
    let store = Store()
    output.subscribe(store) { store, event in await store.apply(event) }
    let perThread = stress(500)
    let finished = await runConcurrently(threads: 4) { thread in
      for index in 0..<perThread {
        output.send(thread * 1_000_000 + index)
      }
    }
    #expect(finished)
    try await output.waitUntilDelivered()
    let received = await store.received
    #expect(received.count == 4 * perThread, "every event exactly once")
    #expect(Set(received).count == received.count)
    for thread in 0..<4 {
      let mine = received.filter { $0 / 1_000_000 == thread }
      #expect(mine == mine.sorted(), "each sender's events in the order it sent them")
    }
    #expect(await store.mostRunningAtOnce == 1, "never two tasks handing events over at once")
  }

  @Test func theBacklogIsVisibleAndCancelDropsWhatWaits() async throws {
    let output = Output<Int>()
    let store = Store()
    await store.closeGate()
    let subscription = output.subscribe(store) { store, event in await store.apply(event) }
    output.send(0)
    #expect(await suspendUntil { await store.isWaitingAtGate })
    for event in 1...10 {
      output.send(event)
    }
    #expect(subscription.waitingCount == 10)
    subscription.cancel()
    #expect(subscription.waitingCount == 0)
    output.send(11)
    await store.openGate()
    try await output.waitUntilDelivered()  // covers the event in progress, and anything wrongly queued after it
    #expect(await store.received == [0], "the event in progress finishes; what waited is dropped; nothing later")
    #expect(output.subscriberCount == 0)
  }

  @Test func theActorIsHeldWeaklyAndItsSubscriptionEndsWithIt() async throws {
    let output = Output<Int>()
    weak var weakStore: Store?
    do {
      let store = Store()
      weakStore = store
      output.subscribe(store) { store, event in await store.apply(event) }
      output.send(1)
      try await output.waitUntilDelivered()
      #expect(await store.received == [1])
    }
    #expect(await suspendUntil { weakStore == nil }, "the subscription does not keep the actor")
    output.send(2)
    output.pruneDeadSubscribers()
    #expect(output.subscriberCount == 0)
  }

  @Test func anActorSubscriptionWorksOnAnyStreamThroughItsOperators() async throws {
    let output = Output<Int>()
    let store = Store()
    output.map { $0 * 10 }.subscribe(store) { store, event in await store.apply(event) }
    for event in 1...3 {
      output.send(event)
    }
    try await output.waitUntilDelivered()
    #expect(await store.received == [10, 20, 30])
  }

  @Test func otherSubscriptionsHaveNoBacklogOfTheirOwn() {
    final class Screen: Sendable {}
    let output = Output<Int>()
    let screen = Screen()
    let subscription = output.subscribe(screen) { _, _ in }
    output.send(1)
    #expect(subscription.waitingCount == 0)
  }
}

extension ActorResponderTests {
  actor Counter {
    var total = 0
  }

  @Test func aHandlerWithNoAwaitIsIsolatedToTheActorToo() async throws {
    let output = Output<Int>()
    let counter = Counter()
    // No `await`: the synchronous overload, whose handler still runs on the actor and changes its state.
    output.subscribe(counter) { counter, value in counter.total += value }
    for value in 1...100 {
      output.send(value)
    }
    try await output.waitUntilDelivered()
    #expect(await counter.total == 5_050)
  }
}
