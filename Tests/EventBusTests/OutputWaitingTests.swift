import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// `waitUntilDelivered()` returns once everything sent before the call has reached every subscriber, in every context,
/// and not before; a cancelled wait returns at once and leaves nothing behind.
@Suite struct OutputWaitingTests {
  /// How long a handler holds its first event, waiting for a wait that returned too early: long enough for such a
  /// wait to show, and a correct run pays it once per test. Not a synchronisation: a correct wait never signals it.
  static let holdTime: DispatchTimeInterval = .milliseconds(300)

  actor Store {
    private(set) var received: [Int] = []

    func apply(_ event: Int) async {
      await Task.yield()  // a suspension inside the handler: the wait covers it too
      received.append(event)
    }
  }

  /// A handler that holds the first event it receives for `holdTime`, or until the test signals `released`, then
  /// records each event. A test reads what was recorded once the wait returned, before it releases the handler: a wait
  /// that returned while the first event was held finds it missing.
  final class HoldingHandler: Sendable {
    let log = Log<Int>()
    let released = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    private let holdTime: DispatchTimeInterval

    init(holdTime: DispatchTimeInterval = OutputWaitingTests.holdTime) {
      self.holdTime = holdTime
    }

    func handle(_ event: Int) {
      if log.count == 0 {  // a subscriber's handler never runs twice at once
        entered.signal()
        _ = released.wait(timeout: .now() + holdTime)
      }
      log.append(event)
    }
  }

  @Test func aWaitWithNoSubscribersReturnsAtOnce() async throws {
    let output = Output<Int>()
    output.send(1)
    try await output.waitUntilDelivered()
    try await output.readOnly.waitUntilDelivered()
  }

  @Test(arguments: ["serial", "concurrent"])
  func aWaitCoversEveryEventQueuedForAQueue(kind: String) async throws {
    let queue = DispatchQueue(label: "wait", attributes: kind == "concurrent" ? .concurrent : [])
    let output = Output<Int>()
    let holding = HoldingHandler()
    output.subscribe(holding, on: .queue(queue)) { holding, event in holding.handle(event) }
    let count = stress(1_000)
    for event in 1...count { output.send(event) }
    try await output.waitUntilDelivered()
    let delivered = holding.log.elements
    holding.released.signal()
    #expect(delivered == Array(1...count), "every event, once, in order, before the wait returned")
  }

  @Test func aWaitCoversEveryEventQueuedForTheMainActor() async throws {
    let output = Output<Int>()
    let holding = HoldingHandler()
    let subscription = output.subscribe(on: .main) { event in holding.handle(event) }
    let count = stress(1_000)
    await runOnThread {
      for event in 1...count { output.send(event) }
    }
    try await output.waitUntilDelivered()
    let delivered = holding.log.elements
    holding.released.signal()
    #expect(delivered == Array(1...count))
    subscription.cancel()
  }

  @Test func aWaitCoversEveryEventQueuedForAnActorResponder() async throws {
    let output = Output<Int>()
    let store = Store()
    let holding = HoldingHandler()
    output.subscribe(store) { store, event in
      holding.handle(event)
      await store.apply(event)
    }
    let count = stress(1_000)
    for event in 1...count { output.send(event) }
    try await output.waitUntilDelivered()
    let delivered = holding.log.elements
    holding.released.signal()
    #expect(delivered == Array(1...count))
    #expect(await store.received == Array(1...count))
  }

  @Test func aWaitCoversEventsQueuedForAnotherThreadThatHoldsTheDelivery() async throws {
    let output = Output<Int>()
    let holding = HoldingHandler()
    output.subscribe(holding) { holding, event in holding.handle(event) }
    let first = Task.detached { await runOnThread { output.send(1) } }
    await runOnThread { holding.entered.wait() }  // the other thread holds the delivery, inside the handler
    output.send(2)  // queued for that thread
    output.send(3)
    try await output.waitUntilDelivered()
    let delivered = holding.log.elements
    holding.released.signal()
    #expect(delivered == [1, 2, 3], "the holder delivered everything queued for it first")
    #expect(await first.value)
  }

  @Test func aWaitCoversEveryContextAtOnce() async throws {
    let output = Output<Int>()
    let immediate = Log<Int>()
    let serial = Log<Int>()
    let concurrent = Log<Int>()
    let main = Log<Int>()
    let store = Store()
    let subscriptions = [
      output.subscribe { immediate.append($0) },
      output.subscribe(on: .queue(DispatchQueue(label: "serial"))) { serial.append($0) },
      output.subscribe(on: .queue(DispatchQueue(label: "concurrent", attributes: .concurrent))) {
        concurrent.append($0)
      },
      output.subscribe(on: .main) { main.append($0) },
    ]
    output.subscribe(store) { store, event in await store.apply(event) }
    let count = stress(500)
    await runOnThread {
      for event in 1...count { output.send(event) }
    }
    try await output.waitUntilDelivered()
    let all = Array(1...count)
    #expect(immediate.elements == all)
    #expect(serial.elements == all)
    #expect(concurrent.elements == all)
    #expect(main.elements == all)
    #expect(await store.received == all)
    for subscription in subscriptions { subscription.cancel() }
  }

  @Test func aWaitRacingSendsFromOtherThreadsCoversEverythingSentBeforeIt() async throws {
    let output = Output<Int>()
    // Each holds its first event a moment: a wait that returned before the deliveries would find them missing.
    let serial = HoldingHandler()
    let main = HoldingHandler()
    let actor = HoldingHandler()
    let store = Store()
    let subscriptions = [
      output.subscribe(on: .queue(DispatchQueue(label: "serial"))) { serial.handle($0) },
      output.subscribe(on: .main) { main.handle($0) },
    ]
    output.subscribe(store) { store, event in
      actor.handle(event)
      await store.apply(event)
    }
    let sent = Counter()
    let threads = 3
    let perThread = stress(2_000)
    let senders = Task.detached {
      await runConcurrently(threads: threads) { thread in
        for index in 0..<perThread {
          output.send(thread * perThread + index)
          sent.increment()  // after `send` returned
        }
      }
    }
    var checks = 0
    while sent.current < threads * perThread && checks < 1_000 {
      let sentBefore = sent.current
      try await output.waitUntilDelivered()
      #expect(serial.log.count >= sentBefore)
      #expect(main.log.count >= sentBefore)
      #expect(await store.received.count >= sentBefore)
      checks += 1
    }
    #expect(await senders.value)
    try await output.waitUntilDelivered()
    #expect(serial.log.count == threads * perThread)
    #expect(main.log.count == threads * perThread)
    #expect(await store.received.count == threads * perThread)
    for subscription in subscriptions { subscription.cancel() }
  }

  @Test func aCancelledWaitOnAQueueThrowsAtOnceAndLeavesNothingBehind() async throws {
    let queue = DispatchQueue(label: "suspended")
    let output = Output<Int>()
    let log = Log<Int>()
    let subscription = output.subscribe(on: .queue(queue)) { log.append($0) }
    queue.suspend()  // the events wait in the lane until the end of the test
    output.send(1)
    output.send(2)
    let weakWait = await cancelWaitOnceRegistered(on: output)
    #expect(weakWait.wait == nil, "the lane no longer keeps the wait")
    #expect(log.count == 0, "the queue is still suspended")
    queue.resume()
    try await output.waitUntilDelivered()
    #expect(log.elements == [1, 2])
    subscription.cancel()
  }

  @Test func aCancelledWaitOnTheHolderThrowsAtOnceAndLeavesNothingBehind() async throws {
    let output = Output<Int>()
    let holding = HoldingHandler(holdTime: .seconds(Int(watchdogTimeout)))  // until the test releases it
    output.subscribe(holding) { holding, event in holding.handle(event) }
    let first = Task.detached { await runOnThread { output.send(1) } }
    await runOnThread { holding.entered.wait() }
    output.send(2)
    let weakWait = await cancelWaitOnceRegistered(on: output)
    #expect(weakWait.wait == nil, "the machine no longer keeps the wait")
    #expect(output.storage.state.withLock { $0.machine.waitCount } == 0)
    holding.released.signal()
    #expect(await first.value)
    #expect(holding.log.elements == [1, 2])
  }

  /// Starts a wait on `output`, cancels it once the output keeps it, and checks that it threw at once. Returns a weak
  /// reference to it, for the test to check that nothing keeps it any more.
  private func cancelWaitOnceRegistered(on output: Output<Int>) async -> WeakWait {
    let (registered, kept) = AsyncStream.makeStream(of: Void.self)
    let weakWait = WeakWait()
    let waiting = Task {
      try await output.waitUntilDelivered { wait in
        weakWait.wait = wait
        kept.yield()
      }
    }
    for await _ in registered { break }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    return weakWait
  }

  @Test func aWaitInACancelledTaskThrowsWithoutWaiting() async {
    let queue = DispatchQueue(label: "suspended")
    let output = Output<Int>()
    let subscription = output.subscribe(on: .queue(queue)) { _ in }
    queue.suspend()
    output.send(1)
    let waiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await output.waitUntilDelivered()
    }
    await #expect(throws: CancellationError.self) { try await waiting.value }
    queue.resume()
    subscription.cancel()
  }
}

/// A weak reference to a wait, which the test reads after the wait should have been let go.
final class WeakWait: Sendable {
  private let storage = LockedState(Box())

  private struct Box {
    weak var wait: DeliveryWait?
  }

  var wait: DeliveryWait? {
    get { storage.withLock { $0.wait } }
    set { storage.withLock { $0.wait = newValue } }
  }
}
