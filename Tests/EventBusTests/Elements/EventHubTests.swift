import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

@Suite struct EventHubTests {
  struct SignedIn: Sendable, Equatable { let id: Int }
  struct SignedOut: Sendable, Equatable {}

  @Test func routesEachEventOnlyToTheSubscribersOfItsType() {
    let hub = EventHub()
    let signedIn = Recorder<SignedIn>()
    let signedOut = Recorder<SignedOut>()
    hub.subscribe(SignedIn.self, signedIn)
    hub.subscribe(SignedOut.self, signedOut)
    hub.post(SignedIn(id: 1))
    hub.post(SignedOut())
    hub.post(SignedIn(id: 2))
    #expect(signedIn.events == [SignedIn(id: 1), SignedIn(id: 2)])
    #expect(signedOut.events == [SignedOut()])
  }

  @Test func twoHubsAreIndependent() {
    let first = EventHub()
    let second = EventHub()
    let log = Log<Int>()
    let token = first.subscribe(Int.self) { log.append($0) }
    second.post(1)
    first.post(2)
    #expect(log.elements == [2])
    token.cancel()
  }

  @Test func subscribersOfOneTypeAreCalledInSubscriptionOrder() {
    let hub = EventHub()
    let log = Log<String>()
    let first = hub.subscribe(Int.self) { log.append("first \($0)") }
    let responder = Recorder<Int>()
    hub.subscribe(Int.self, responder) { _, value in log.append("second \(value)") }
    let third = hub.subscribe(Int.self) { log.append("third \($0)") }
    hub.post(1)
    hub.post(2)
    #expect(log.elements == ["first 1", "second 1", "third 1", "first 2", "second 2", "third 2"])
    first.cancel()
    third.cancel()
  }

  @Test func postingATypeWithoutSubscribersCreatesNothing() {
    struct Unheard: Sendable {}
    let hub = EventHub()
    hub.post(Unheard())
    #expect(hub.channelCount == 0)
    #expect(hub.subscriberCount(for: Unheard.self) == 0)
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.count("Output", for: Unheard.self) == 0)
  }

  @Test(.countsLiveObjects) func channelIsCreatedByTheFirstSubscriptionAndReleasedWithTheLastToken() {
    struct Probe: Sendable {}
    let hub = EventHub()
    do {
      let first = hub.subscribe(Probe.self) { _ in }
      #expect(hub.channelCount == 1)
      #expect(LiveObjects.count("Output", for: Probe.self) == 1)
      let second = hub.subscribe(Probe.self) { _ in }
      #expect(hub.channelCount == 1)
      #expect(hub.subscriberCount(for: Probe.self) == 2)
      first.cancel()
      #expect(hub.channelCount == 1)
      second.cancel()
      #expect(hub.channelCount == 0)
      #expect(LiveObjects.count("Output", for: Probe.self) == 0)
    }
    #expect(LiveObjects.total(for: Probe.self) == 0)
  }

  @Test func channelIsReleasedWhenTheLastResponderDeinitialisesAndAnEventFindsItGone() {
    struct Probe: Sendable {}
    let hub = EventHub()
    weak var weakResponder: Recorder<Probe>?
    do {
      let responder = Recorder<Probe>()
      weakResponder = responder
      hub.subscribe(Probe.self, responder)  // handle discarded: the subscription lives with the responder
      hub.post(Probe())
      #expect(responder.events.count == 1)
    }
    #expect(weakResponder == nil)
    hub.post(Probe())  // delivery finds the responder gone and removes its subscription
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.total(for: Probe.self) == 0)
  }

  @Test func subscriberCountOnlyCountsAndPruningReleasesTheChannel() {
    struct Probe: Sendable {}
    let hub = EventHub()
    do {
      let responder = Recorder<Probe>()
      hub.subscribe(Probe.self, responder)
      #expect(hub.subscriberCount(for: Probe.self) == 1)
    }
    #expect(hub.subscriberCount(for: Probe.self) == 0)
    #expect(hub.channelCount == 1, "reading the count released the channel")
    hub.pruneDeadSubscribers()
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.total(for: Probe.self) == 0)
  }

  // MARK: - Pruning

  @Test func pruningRemovesOnlyDeadSubscriptionsAndReleasesOnlyTheChannelsLeftEmpty() {
    struct Kept: Sendable, Equatable { let value: Int }
    struct Emptied: Sendable {}
    struct Held: Sendable {}
    let hub = EventHub()
    let survivor = Recorder<Kept>()
    let held = Log<Held>()
    hub.subscribe(Kept.self, survivor)
    let token = hub.subscribe(Held.self) { held.append($0) }
    weak var weakDead: Recorder<Kept>?
    do {
      let deadKept = Recorder<Kept>()
      let deadEmptied = Recorder<Emptied>()
      weakDead = deadKept
      hub.subscribe(Kept.self, deadKept)
      hub.subscribe(Emptied.self, deadEmptied)
    }
    #expect(weakDead == nil)
    #expect(hub.channelCount == 3)
    hub.pruneDeadSubscribers()
    #expect(hub.channelCount == 2)
    #expect(hub.subscriberCount(for: Kept.self) == 1)
    #expect(hub.subscriberCount(for: Held.self) == 1)
    hub.post(Kept(value: 1))
    hub.post(Held())
    #expect(survivor.events == [Kept(value: 1)])
    #expect(held.count == 1)
    hub.pruneDeadSubscribers()
    #expect(hub.channelCount == 2, "a prune with nothing dead changes nothing")
    token.cancel()
    #expect(hub.channelCount == 1)
    #expect(LiveObjects.total(for: Emptied.self) == 0)
    #expect(LiveObjects.total(for: Held.self) == 0)
  }

  @Test func pruningAnEmptyHubDoesNothing() {
    let hub = EventHub()
    hub.pruneDeadSubscribers()
    #expect(hub.channelCount == 0)
  }

  /// The handler of a dead responder holds the last reference to an object whose `deinit` uses the hub: pruning
  /// releases it, and a lock still held at that moment would trap (debug) or deadlock (release).
  @Test func aDeinitRunByPruningMayUseTheHub() {
    struct Probe: Sendable {}
    let hub = EventHub()
    let seenFromDeinit = LockedState<[Int]>([])
    let lateDelivery = Log<Probe>()
    let lateToken = LockedState<EventSubscription?>(nil)
    do {
      let responder = Recorder<Probe>()
      let capture = Recorder<Int>(onDeinit: {
        seenFromDeinit.withLock { $0.append(hub.subscriberCount(for: Probe.self)) }
        hub.pruneDeadSubscribers()
        let token = hub.subscribe(Probe.self) { lateDelivery.append($0) }
        hub.post(Probe())
        lateToken.withLock { $0 = token }
        seenFromDeinit.withLock { $0.append(hub.channelCount) }
      })
      hub.subscribe(Probe.self, responder) { [capture] _, _ in _ = capture }
    }
    #expect(hub.channelCount == 1)
    hub.pruneDeadSubscribers()
    #expect(seenFromDeinit.withLock { $0 } == [0, 1])
    #expect(lateDelivery.count == 1)
    #expect(hub.subscriberCount(for: Probe.self) == 1)
    lateToken.withLock { $0 }?.cancel()
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.total(for: Probe.self) == 0)
  }

  @Test func cancellingAResponderSubscriptionStopsDeliveryWhileTheResponderLives() {
    let hub = EventHub()
    let responder = Recorder<SignedIn>()
    let handle = hub.subscribe(SignedIn.self, responder)
    hub.post(SignedIn(id: 1))
    handle.cancel()
    hub.post(SignedIn(id: 2))
    #expect(responder.events == [SignedIn(id: 1)])
    #expect(hub.channelCount == 0)
  }

  @Test func releasingATokenEndsItsSubscription() {
    struct Probe: Sendable {}
    let hub = EventHub()
    let log = Log<Int>()
    do {
      let token = hub.subscribe(Probe.self) { _ in log.append(1) }
      hub.post(Probe())
      _ = token
    }
    hub.post(Probe())
    #expect(log.count == 1)
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.total(for: Probe.self) == 0)
  }

  @Test func aHandlerMayPostAnotherTypeWhichIsDeliveredAtOnce() {
    let hub = EventHub()
    let log = Log<String>()
    let onSignedIn = hub.subscribe(SignedIn.self) { event in
      log.append("signed in \(event.id)")
      hub.post(SignedOut())
      log.append("after posting signed out")
    }
    let onSignedOut = hub.subscribe(SignedOut.self) { _ in log.append("signed out") }
    hub.post(SignedIn(id: 1))
    #expect(log.elements == ["signed in 1", "signed out", "after posting signed out"])
    onSignedIn.cancel()
    onSignedOut.cancel()
  }

  @Test func aPostOfTheSameTypeFromAHandlerIsQueuedUntilEverySubscriberHadTheCurrentEvent() {
    let hub = EventHub()
    let log = Log<String>()
    let first = hub.subscribe(Int.self) { value in
      log.append("first \(value)")
      if value == 1 { hub.post(2) }
    }
    let second = hub.subscribe(Int.self) { log.append("second \($0)") }
    hub.post(1)
    #expect(log.elements == ["first 1", "second 1", "first 2", "second 2"])
    first.cancel()
    second.cancel()
  }

  @Test func aHandlerMaySubscribeOnTheSameHubAndTheNewSubscriberGetsTheNextEvent() {
    let hub = EventHub()
    let late = Log<Int>()
    let tokens = LockedState<[EventSubscription]>([])
    let first = hub.subscribe(Int.self) { value in
      guard value == 1 else { return }
      let token = hub.subscribe(Int.self) { late.append($0) }
      tokens.withLock { $0.append(token) }
    }
    hub.post(1)
    hub.post(2)
    #expect(late.elements == [2])
    first.cancel()
    tokens.withLock { $0.removeAll() }
    #expect(hub.channelCount == 0)
  }

  @Test func aHandlerMayCancelTheLastSubscriptionOfItsOwnChannel() {
    struct Probe: Sendable {}
    let hub = EventHub()
    let log = Log<Int>()
    let token = LockedState<EventSubscription?>(nil)
    do {
      let subscription = hub.subscribe(Probe.self) { _ in
        log.append(1)
        token.withLock { $0 }?.cancel()
      }
      token.withLock { $0 = subscription }
    }
    hub.post(Probe())
    hub.post(Probe())
    #expect(log.count == 1)
    #expect(hub.channelCount == 0)
    do {
      let released = token.withLock { token in
        defer { token = nil }
        return token
      }
      _ = released
    }
    #expect(LiveObjects.total(for: Probe.self) == 0)
  }

  @Test func eventResponderSubscribesWithItsHandleMethod() {
    let hub = EventHub()
    let responder = Recorder<SignedIn>()
    hub.subscribe(SignedIn.self, responder)
    hub.post(SignedIn(id: 3))
    #expect(responder.events == [SignedIn(id: 3)])
  }

  @Test func eventsOfATypeWorkWithOperators() {
    let hub = EventHub()
    let log = Log<Int>()
    let token = hub.events(of: SignedIn.self).map(\.id).filter { $0 > 0 }.removeDuplicates().subscribe {
      log.append($0)
    }
    for id in [1, 1, -1, 2, 2, 3] { hub.post(SignedIn(id: id)) }
    #expect(log.elements == [1, 2, 3])
    #expect(hub.events(of: SignedIn.self).subscriberCount == 1)
    token.cancel()
    #expect(hub.events(of: SignedIn.self).subscriberCount == 0)
  }

  @Test func queueContextDeliversInOrderOnTheQueue() async {
    let hub = EventHub()
    let queue = DispatchQueue(label: "hub-test")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let log = Log<Int>()
    let onQueue = Log<Bool>()
    let token = hub.subscribe(Int.self, on: .queue(queue)) { value in
      onQueue.append(DispatchQueue.getSpecific(key: key) == true)
      log.append(value)
    }
    for value in 0..<100 { hub.post(value) }
    queue.sync {}
    #expect(log.elements == Array(0..<100))
    #expect(onQueue.elements.allSatisfy { $0 })
    token.cancel()
  }

  @MainActor
  @Test func mainContextRunsHandlersOnTheMainActor() async {
    @MainActor final class Screen {
      var ids: [Int] = []
    }
    let hub = EventHub()
    let screen = Screen()
    hub.subscribe(SignedIn.self, screen, on: .main) { screen, event in screen.ids.append(event.id) }
    let tokenLog = LockedState<[Int]>([])
    let token = hub.subscribe(SignedIn.self, on: .main) { event in
      MainActor.assertIsolated()
      tokenLog.withLock { $0.append(event.id) }
    }
    Thread.detachNewThread {
      hub.post(SignedIn(id: 1))
      hub.post(SignedIn(id: 2))
    }
    let delivered = await eventually { screen.ids.count == 2 && tokenLog.withLock { $0.count } == 2 }
    #expect(delivered)
    #expect(screen.ids == [1, 2])
    #expect(tokenLog.withLock { $0 } == [1, 2])
    token.cancel()
  }

  @Test func subscriptionsDoNotKeepTheHubAlive() {
    struct Probe: Sendable {}
    weak var weakHub: EventHub?
    do {
      let token: EventSubscription
      do {
        let hub = EventHub()
        weakHub = hub
        token = hub.subscribe(Probe.self) { _ in }
      }
      #expect(weakHub == nil)
      token.cancel()
    }
    #expect(LiveObjects.total(for: Probe.self) == 0)
  }

  // MARK: - Concurrency

  /// Each thread subscribes, posts an event meant for itself, waits for it and cancels, so the channel keeps
  /// emptying while other threads subscribe. A subscribe that landed in a channel being released would never see
  /// its event.
  @Test func aSubscribeRacingTheReleaseOfTheChannelNeverLandsInAReleasedChannel() async {
    struct Ping: Sendable {
      let thread: Int
      let iteration: Int
    }
    let hub = EventHub()
    let threads = 4
    let iterations = stressIterations(2_000)
    let received = LockedState([Int](repeating: 0, count: threads))
    await runConcurrently(threads: threads) { thread in
      for iteration in 0..<iterations {
        let arrived = DispatchSemaphore(value: 0)
        let token = hub.subscribe(Ping.self) { ping in
          if ping.thread == thread && ping.iteration == iteration { arrived.signal() }
        }
        hub.post(Ping(thread: thread, iteration: iteration))
        // Another thread may be delivering: then it delivers this event too, after `post` returned.
        if arrived.wait(timeout: .now() + 10) == .success {
          received.withLock { $0[thread] += 1 }
        }
        token.cancel()
      }
    }
    #expect(received.withLock { $0 } == [Int](repeating: iterations, count: threads))
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.total(for: Ping.self) == 0)
  }

  @Test func concurrentPostsOfSeveralTypesReachEveryPermanentSubscriberOnceAndInOrderPerSender() async {
    struct Left: Sendable {
      let sender: Int
      let value: Int
    }
    struct Right: Sendable { let value: Int }
    struct Churn: Sendable {}
    let hub = EventHub()
    let threads = 4
    let iterations = stressIterations(5_000)
    let left = Recorder<Left>()
    let right = Recorder<Right>()
    hub.subscribe(Left.self, left)
    hub.subscribe(Right.self, right)
    let inside = LockedState(0)
    let maxInside = LockedState(0)
    let serialCheck = hub.subscribe(Left.self) { _ in
      let now = inside.withLock {
        $0 += 1
        return $0
      }
      maxInside.withLock { $0 = max($0, now) }
      inside.withLock { $0 -= 1 }
    }
    await runConcurrently(threads: threads) { thread in
      for iteration in 0..<iterations {
        if thread.isMultiple(of: 2) {
          hub.post(Left(sender: thread, value: iteration))
        } else {
          hub.post(Right(value: iteration))
        }
        // A channel created and released over and over beside the two permanent ones.
        let churn = hub.subscribe(Churn.self) { _ in }
        hub.post(Churn())
        churn.cancel()
      }
    }
    let leftEvents = left.events
    #expect(leftEvents.count == iterations * threads / 2)
    #expect(right.events.count == iterations * threads / 2)
    #expect(maxInside.withLock { $0 } == 1)
    for sender in stride(from: 0, to: threads, by: 2) {
      #expect(leftEvents.filter { $0.sender == sender }.map(\.value) == Array(0..<iterations))
    }
    serialCheck.cancel()
    #expect(hub.channelCount == 2)
    #expect(LiveObjects.total(for: Churn.self) == 0)
  }

  @Test func threadsSubscribingRespondersThatDieWhilePostingLeaveNoChannelBehind() async {
    struct Tick: Sendable {}
    let hub = EventHub()
    let iterations = stressIterations(2_000)
    await runConcurrently(threads: 4) { thread in
      for _ in 0..<iterations {
        if thread == 0 {
          hub.post(Tick())
        } else {
          // The responder dies at the end of the iteration, possibly while another thread delivers to it.
          let responder = Recorder<Tick>()
          hub.subscribe(Tick.self, responder)
          hub.post(Tick())
        }
      }
    }
    // The responders of the last posts died after them; nothing has looked at their subscriptions since.
    hub.pruneDeadSubscribers()
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.total(for: Tick.self) == 0)
  }

  /// Threads subscribe a responder, post an event meant for it, wait for it and let the responder die, while another
  /// thread prunes over and over. A subscribe that landed in a channel that a prune released would never see its
  /// event.
  @Test func pruningWhileThreadsSubscribeNeverReleasesAChannelInUse() async {
    struct Ping: Sendable {
      let thread: Int
      let iteration: Int
    }
    final class Waiter: Sendable {
      let thread: Int
      let iteration: Int
      let arrived = DispatchSemaphore(value: 0)
      init(thread: Int, iteration: Int) {
        self.thread = thread
        self.iteration = iteration
      }
    }
    let hub = EventHub()
    let subscribers = 3
    let iterations = stressIterations(2_000)
    let finished = Counter()
    let prunes = Counter()
    let received = LockedState([Int](repeating: 0, count: subscribers))
    await runConcurrently(threads: subscribers + 1) { thread in
      guard thread < subscribers else {
        while finished.current < subscribers {
          hub.pruneDeadSubscribers()
          prunes.increment()
        }
        return
      }
      for iteration in 0..<iterations {
        let waiter = Waiter(thread: thread, iteration: iteration)
        hub.subscribe(Ping.self, waiter) { waiter, ping in
          if ping.thread == waiter.thread && ping.iteration == waiter.iteration { waiter.arrived.signal() }
        }
        hub.post(Ping(thread: thread, iteration: iteration))
        // Another thread may be delivering: then it delivers this event too, after `post` returned.
        if waiter.arrived.wait(timeout: .now() + 10) == .success {
          received.withLock { $0[thread] += 1 }
        }
      }
      finished.increment()
    }
    #expect(received.withLock { $0 } == [Int](repeating: iterations, count: subscribers))
    #expect(prunes.current > 0)
    hub.pruneDeadSubscribers()
    #expect(hub.channelCount == 0)
    #expect(LiveObjects.total(for: Ping.self) == 0)
  }
}
