import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// A subscriber that can't keep up, on a queue, the main actor or an actor: each buffering policy keeps what it says,
/// counts every event it drops, and tells the subscriber how many it missed before the next event it receives.
@Suite struct BoundedDeliveryTests {
  /// What a subscriber saw, in order: `"7"` for an event, `"lag 3"` for a report of three dropped events.
  final class Transcript: Sendable {
    private let lines = LockedState<[String]>([])

    var elements: [String] { lines.withLock { $0 } }
    var events: [Int] { elements.compactMap { Int($0) } }
    var lags: [Int] { elements.compactMap { $0.hasPrefix("lag ") ? Int($0.dropFirst(4)) : nil } }

    func event(_ event: Int) { lines.withLock { $0.append("\(event)") } }
    func lag(_ missed: Int) { lines.withLock { $0.append("lag \(missed)") } }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let policy: DeliveryContext.BufferingPolicy
    /// What the subscriber sees after 1...10 are sent while its queue is suspended, then 11 once it has run.
    let transcript: [String]
    let dropped: Int
    var testDescription: String { "\(policy)" }
  }

  static let cases: [Case] = [
    Case(policy: .unbounded, transcript: (1...11).map { "\($0)" }, dropped: 0),
    Case(policy: .bufferingNewest(3), transcript: ["lag 7", "8", "9", "10", "11"], dropped: 7),
    Case(policy: .bufferingOldest(3), transcript: ["1", "2", "3", "lag 7", "11"], dropped: 7),
    Case(policy: .latest, transcript: ["lag 9", "10", "11"], dropped: 9),
    Case(policy: .bufferingNewest(0), transcript: ["lag 9", "10", "11"], dropped: 9),
  ]

  // MARK: What each policy keeps, and what it tells

  @Test(arguments: cases)
  func onAQueueEachPolicyKeepsWhatItSaysAndTellsTheLossWhereItHappened(_ testCase: Case) async throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "slow")
    let transcript = Transcript()
    let subscription = output.subscribe(
      transcript, on: .queue(queue, bufferingPolicy: testCase.policy, onLag: { transcript.lag($0) })
    ) { transcript, event in transcript.event(event) }
    queue.suspend()
    for event in 1...10 { output.send(event) }
    #expect(subscription.waitingCount == 10 - testCase.dropped)
    #expect(subscription.droppedCount == testCase.dropped, "counted as they are dropped, not when delivered")
    queue.resume()
    try await output.waitUntilDelivered()
    output.send(11)
    try await output.waitUntilDelivered()
    #expect(transcript.elements == testCase.transcript)
    #expect(subscription.droppedCount == testCase.dropped)
    #expect(subscription.waitingCount == 0)
  }

  @Test(arguments: cases)
  func onTheMainActorEachPolicyKeepsWhatItSaysAndTellsTheLossWhereItHappened(_ testCase: Case) async throws {
    let output = Output<Int>()
    let transcript = Transcript()
    let subscription = output.subscribe(
      transcript, on: .main(bufferingPolicy: testCase.policy, onLag: { transcript.lag($0) })
    ) { transcript, event in transcript.event(event) }
    // The main queue is held while another thread sends, so every event waits.
    let release = DispatchSemaphore(value: 0)
    let held = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
      held.signal()
      release.wait()
    }
    await runOnThread {
      held.wait()
      for event in 1...10 { output.send(event) }
      release.signal()
    }
    try await output.waitUntilDelivered()
    await runOnThread { output.send(11) }
    try await output.waitUntilDelivered()
    #expect(transcript.elements == testCase.transcript)
    #expect(subscription.droppedCount == testCase.dropped)
  }

  @Test(arguments: cases)
  func onAnActorEachPolicyKeepsWhatItSaysAndTellsTheLossWhereItHappened(_ testCase: Case) async throws {
    let output = Output<Int>()
    let transcript = Transcript()
    let store = GatedStore(transcript: transcript)
    let onLag: @Sendable (Int) -> Void = { transcript.lag($0) }
    let subscription = output.subscribe(store, bufferingPolicy: testCase.policy, onLag: onLag) { store, event in
      await store.apply(event)
    }
    output.send(0)  // the actor takes it and waits at the gate: what follows waits in its mailbox
    await store.waitUntilHeld()
    for event in 1...10 { output.send(event) }
    #expect(subscription.waitingCount == 10 - testCase.dropped)
    await store.open()
    try await output.waitUntilDelivered()
    output.send(11)
    try await output.waitUntilDelivered()
    #expect(transcript.elements == ["0"] + testCase.transcript)
    #expect(subscription.droppedCount == testCase.dropped)
  }

  /// An actor whose handler holds its first event at a gate until the test opens it.
  actor GatedStore {
    let transcript: Transcript
    private var isOpen = false
    private var gate: CheckedContinuation<Void, Never>?
    private var holding: CheckedContinuation<Void, Never>?
    private var isHolding = false

    init(transcript: Transcript) { self.transcript = transcript }

    func apply(_ event: Int) async {
      transcript.event(event)
      guard !isOpen else { return }
      isHolding = true
      holding?.resume()
      holding = nil
      await withCheckedContinuation { gate = $0 }
    }

    func waitUntilHeld() async {
      guard !isHolding else { return }
      await withCheckedContinuation { holding = $0 }
    }

    func open() {
      isOpen = true
      gate?.resume()
      gate = nil
    }
  }

  // MARK: Exact counts on every context, with four senders

  enum Context: String, CaseIterable, Sendable {
    case queue, main, actor
  }

  static let concurrentCases: [(Context, DeliveryContext.BufferingPolicy)] = Context.allCases.flatMap { context in
    [DeliveryContext.BufferingPolicy.bufferingNewest(5), .bufferingOldest(5), .latest, .unbounded].map {
      (context, $0)
    }
  }

  /// Four threads send together to a subscriber that is slower than they are. Once everything is delivered, every
  /// event sent was delivered or dropped, exactly once, the delivered ones in each sender's order, and the drops told
  /// to the subscriber add up to those counted (keeping the oldest, the drops after the last event kept are counted
  /// but, with no later event to come before, not told).
  @Test(arguments: concurrentCases)
  func everyEventSentByFourThreadsIsDeliveredOrDroppedExactlyOnce(
    _ context: Context, _ policy: DeliveryContext.BufferingPolicy
  ) async throws {
    let output = Output<Int>()
    let perThread = stress(400)
    let received = LockedState<[Int]>([])
    let lags = LockedState(0)
    let onLag: @Sendable (Int) -> Void = { missed in lags.withLock { $0 += missed } }
    let slowly: @Sendable (Int) -> Void = { event in
      received.withLock { $0.append(event) }
      usleep(20)  // slower than the senders: the policy has work to do
    }
    let sink = Sink(slowly)
    let subscription: any EventCancellable
    let counts: @Sendable () -> (waiting: Int, dropped: Int)
    switch context {
    case .queue:
      let token = output.subscribe(on: .queue(DispatchQueue(label: "slow"), bufferingPolicy: policy, onLag: onLag)) {
        slowly($0)
      }
      (subscription, counts) = (token, { (token.waitingCount, token.droppedCount) })
    case .main:
      let token = output.subscribe(on: .main(bufferingPolicy: policy, onLag: { onLag($0) })) { slowly($0) }
      (subscription, counts) = (token, { (token.waitingCount, token.droppedCount) })
    case .actor:
      let handle = output.subscribe(sink, bufferingPolicy: policy, onLag: onLag) { sink, event in sink.take(event) }
      (subscription, counts) = (handle, { (handle.waitingCount, handle.droppedCount) })
    }
    await send(perThread, to: output)
    let sent = 4 * perThread
    let (waitingWhenSent, droppedWhenSent) = counts()
    let deliveredWhenSent = received.withLock { $0.count }
    #expect(
      deliveredWhenSent + droppedWhenSent + waitingWhenSent >= sent - 1,
      "every event is delivered, dropped or waiting (one may be in the handler's hands)")
    try await output.waitUntilDelivered()
    let delivered = received.withLock { $0 }
    let (waiting, dropped) = counts()
    #expect(waiting == 0)
    #expect(delivered.count + dropped == sent, "sent \(sent) = delivered \(delivered.count) + dropped \(dropped)")
    #expect(Set(delivered).count == delivered.count, "no event delivered twice")
    for sender in 0..<4 {
      let mine = delivered.filter { $0 / 1_000_000 == sender }
      #expect(mine == mine.sorted(), "sender \(sender)'s events arrive in the order it sent them (G1)")
    }
    let told = lags.withLock { $0 }
    switch policy {
    case .unbounded:
      #expect(dropped == 0 && told == 0)
    case .bufferingNewest:
      #expect(told == dropped, "keeping the newest, every drop is told before an event that follows it")
    case .bufferingOldest:
      #expect(told <= dropped)
    }
    if case .bufferingNewest(let limit) = policy {
      #expect(dropped > 0 || sent <= limit, "a subscriber this slow falls behind")
    }
    subscription.cancel()
    withExtendedLifetime(sink) {}
  }

  /// An actor that hands each event to a closure.
  actor Sink {
    let take: @Sendable (Int) -> Void
    init(_ take: @escaping @Sendable (Int) -> Void) { self.take = take }
    func take(_ event: Int) { take(event) }
  }

  /// Sends `perThread` events from each of four threads started together: sender `t`'s events are `t * 1_000_000 + i`.
  private func send(_ perThread: Int, to output: Output<Int>) async {
    let finished = await runConcurrently(threads: 4) { thread in
      for index in 0..<perThread {
        output.send(thread * 1_000_000 + index)
      }
    }
    #expect(finished)
  }

  // MARK: Cancellation, lifetimes, descriptions

  @Test func aCancelledBoundedSubscriptionIsToldNothingMoreAndDropsWhatWaits() async throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "slow")
    let transcript = Transcript()
    let subscription = output.subscribe(
      transcript, on: .queue(queue, bufferingPolicy: .latest, onLag: { transcript.lag($0) })
    ) { transcript, event in transcript.event(event) }
    queue.suspend()
    for event in 1...5 { output.send(event) }
    subscription.cancel()
    queue.resume()
    try await output.waitUntilDelivered()
    queue.sync {}
    #expect(transcript.elements.isEmpty, "G4: neither the event that waited nor its lag reaches a cancelled subscriber")
  }

  @Test func aResponderOfABoundedSubscriptionIsHeldWeaklyAndItsSubscriptionEndsWithIt() async throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "slow")
    weak var weakTranscript: Transcript?
    do {
      let transcript = Transcript()
      weakTranscript = transcript
      output.subscribe(transcript, on: .queue(queue, bufferingPolicy: .bufferingNewest(2))) { transcript, event in
        transcript.event(event)
      }
      queue.suspend()
      output.send(1)
    }
    #expect(weakTranscript == nil, "G6: the lane holds no responder while events wait")
    queue.resume()
    try await output.waitUntilDelivered()
    #expect(output.subscriberCount == 0)
  }

  @Test func theSubscriptionsDescriptionShowsItsPolicyAndItsCounts() throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "described")
    queue.suspend()
    defer { queue.resume() }
    let transcript = Transcript()
    let bounded = output.subscribe(transcript, on: .queue(queue, bufferingPolicy: .bufferingOldest(2))) { _, _ in }
    let token = output.subscribe(on: .queue(queue, bufferingPolicy: .latest)) { _ in }
    let immediate = output.subscribe { _ in }
    for event in 1...4 { output.send(event) }
    #expect(
      bounded.debugDescription
        == "ResponderSubscription(responder Transcript (queue described, oldest 2): 2 waiting, 2 dropped)")
    #expect(token.debugDescription == "EventSubscription(handler (queue described, latest): 1 waiting, 3 dropped)")
    #expect(immediate.debugDescription == "EventSubscription(handler (immediate))")
    #expect(output.debugDescription.contains("(queue described, oldest 2)"))
    token.cancel()
    #expect(token.debugDescription == "EventSubscription(cancelled)")
    withExtendedLifetime((transcript, immediate)) {}
  }

  @Test func unboundedSubscribersOfAQueueShareOneBlockPerBurstAndBoundedOnesEachHaveTheirOwn() async throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "shared")
    let first = Transcript()
    let second = Transcript()
    let bounded = Transcript()
    let tokens = [
      output.subscribe(on: .queue(queue)) { first.event($0) },
      output.subscribe(on: .queue(queue)) { second.event($0) },
      output.subscribe(on: .queue(queue, bufferingPolicy: .bufferingNewest(100))) { bounded.event($0) },
    ]
    queue.suspend()
    for event in 1...3 { output.send(event) }
    #expect(output.storage.state.withLock { $0.lanes.compactMap(\.lane).count } == 2, "one shared lane, one bounded")
    queue.resume()
    try await output.waitUntilDelivered()
    #expect(first.events == [1, 2, 3] && second.events == [1, 2, 3] && bounded.events == [1, 2, 3])
    withExtendedLifetime(tokens) {}
  }

  /// No policy makes a sender wait: a bounded handler that sends to its own output, from its queue or the main actor,
  /// never waits for room in the queue it runs on, so it cannot deadlock against itself.
  @Test(arguments: [DeliveryContext.BufferingPolicy.latest, .bufferingNewest(2), .bufferingOldest(2)])
  func aBoundedHandlerThatSendsToItsOwnOutputNeverWaitsForRoom(_ policy: DeliveryContext.BufferingPolicy) async throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "resending")
    let seen = LockedState(0)
    let onQueue = output.subscribe(on: .queue(queue, bufferingPolicy: policy)) { event in
      seen.withLock { $0 += 1 }
      if event < 200 {
        for next in event + 1...event + 3 { output.send(next) }  // three at once: the policy drops some
      }
    }
    let onMain = output.subscribe(on: .main(bufferingPolicy: policy)) { event in
      if event == 0 { output.send(-1) }  // sent on the main actor, by a main-actor handler
    }
    output.send(0)
    let finished = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        while true {
          try? await output.waitUntilDelivered()
          if onQueue.waitingCount == 0 { return true }
        }
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(watchdogTimeout))
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    #expect(finished, "the senders and handlers finished: nothing waited for room")
    #expect(seen.withLock { $0 } > 0)
    withExtendedLifetime(onMain) {}
  }

  // MARK: The warning before memory goes

  #if DEBUG
    @Test func anUnboundedQueueSubscriberFarBehindIsWarnedAboutOnceNamingItsCallSiteAndAPolicy() async throws {
      let output = Output<Int>()
      let queue = DispatchQueue(label: "far behind")
      queue.suspend()
      let threshold = DeliveryLane<Int>.backlogWarningThreshold
      let line = #line + 1
      let token = output.subscribe(on: .queue(queue)) { _ in }
      let warnings = DebugWarnings.capturing {
        for event in 0...threshold + 10 { output.send(event) }
      }
      queue.resume()
      try await output.waitUntilDelivered()
      #expect(warnings.count == 1, "\(warnings)")
      #expect(warnings.first?.contains("BoundedDeliveryTests.swift:\(line)") == true, "\(warnings)")
      #expect(warnings.first?.contains("bufferingPolicy: .bufferingNewest(1_000)") == true)
      withExtendedLifetime(token) {}
    }

    @Test func aBoundedSubscriberFarBehindIsNeverWarnedAbout() async throws {
      let output = Output<Int>()
      let queue = DispatchQueue(label: "bounded far behind")
      queue.suspend()
      let token = output.subscribe(on: .queue(queue, bufferingPolicy: .bufferingNewest(10))) { _ in }
      let warnings = DebugWarnings.capturing {
        for event in 0...DeliveryLane<Int>.backlogWarningThreshold + 10 { output.send(event) }
      }
      queue.resume()
      try await output.waitUntilDelivered()
      #expect(warnings.isEmpty, "\(warnings)")
      #expect(token.droppedCount == DeliveryLane<Int>.backlogWarningThreshold + 1)
    }

    @Test func anUnboundedActorFarBehindIsWarnedAboutOnce() async throws {
      let output = Output<Int>()
      let transcript = Transcript()
      let store = GatedStore(transcript: transcript)
      let line = #line + 1
      let handle = output.subscribe(store) { store, event in await store.apply(event) }
      output.send(-1)
      await store.waitUntilHeld()
      let warnings = DebugWarnings.capturing {
        for event in 0...DeliveryLane<Int>.backlogWarningThreshold + 10 { output.send(event) }
      }
      await store.open()
      try await output.waitUntilDelivered()
      #expect(warnings.count == 1, "\(warnings)")
      #expect(warnings.first?.contains("BoundedDeliveryTests.swift:\(line)") == true, "\(warnings)")
      #expect(handle.droppedCount == 0)
    }
  #endif
}
