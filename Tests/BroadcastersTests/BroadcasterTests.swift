import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

@Suite struct BroadcasterTests {
  @Test func doesNotConnectBeforeTheFirstSubscriber() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    #expect(!broadcaster.isConnected)
    #expect(broadcaster.connectCount == 0)
    #expect(probe.starts == 0)
  }

  @Test func connectsOnTheFirstSubscriberAndDisconnectsWhenTheLastIsCancelled() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let first = broadcaster.subscribe { _ in }
    #expect(broadcaster.isConnected)
    #expect(probe.starts == 1)
    let second = broadcaster.subscribe { _ in }
    #expect(probe.starts == 1)
    first.cancel()
    #expect(broadcaster.isConnected)
    second.cancel()
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
    #expect(broadcaster.connectCount == 1)
    #expect(broadcaster.disconnectCount == 1)
  }

  @Test func releasingTheLastTokenDisconnectsAtOnce() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let warnings = capturingEarlyReleaseWarnings {
      let token = broadcaster.subscribe { _ in }
      _ = token  // released unused, on purpose
      #expect(broadcaster.isConnected)
    }
    #expect(warnings.count == 1)
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
  }

  @Test func reconnectsOnTheNextSubscriber() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    for round in 1...3 {
      let token = broadcaster.subscribe { _ in }
      #expect(broadcaster.connectCount == round)
      token.cancel()
      #expect(broadcaster.disconnectCount == round)
    }
    #expect(probe.starts == 3)
    #expect(probe.stops == 3)
    #expect(probe.alternated)
  }

  @Test func deliversEachUpstreamEventOnceToEverySubscriberInOrder() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let recorders = (0..<10).map { _ in Recorder<Int>() }
    for recorder in recorders {
      broadcaster.subscribe(recorder)
    }
    let log = Log<Int>()
    let token = broadcaster.subscribe { log.append($0) }
    for value in 1...5 {
      probe.emit(value)
    }
    for recorder in recorders {
      #expect(recorder.events == [1, 2, 3, 4, 5])
    }
    #expect(log.elements == [1, 2, 3, 4, 5])
    #expect(broadcaster.upstreamEventCount == 5)
    #expect(probe.starts == 1)
    token.cancel()
  }

  @Test func aResponderThatDeinitialisesIsNoticedAtTheNextUpstreamEvent() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    do {
      let recorder = Recorder<Int>()
      broadcaster.subscribe(recorder)
      probe.emit(1)
      #expect(recorder.events == [1])
    }
    // Nothing can tell the broadcaster that the responder deinitialised: it is still connected.
    #expect(broadcaster.isConnected)
    probe.emit(2)
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
  }

  @Test func aResponderThatDeinitialisesIsNoticedWhenPrunedNotWhenCounted() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    do {
      let recorder = Recorder<Int>()
      broadcaster.subscribe(recorder)
    }
    #expect(broadcaster.isConnected)
    #expect(broadcaster.subscriberCount == 0)
    #expect(broadcaster.isConnected, "reading subscriberCount disconnected the source")
    #expect(probe.stops == 0)
    broadcaster.pruneDeadSubscribers()
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
    broadcaster.pruneDeadSubscribers()
    #expect(probe.stops == 1, "pruning again stopped the source again")
  }

  @Test func pruningKeepsLiveSubscribersAndTheConnection() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let alive = Recorder<Int>()
    broadcaster.subscribe(alive)
    do {
      let recorder = Recorder<Int>()
      broadcaster.subscribe(recorder)
    }
    broadcaster.pruneDeadSubscribers()
    #expect(broadcaster.isConnected)
    #expect(broadcaster.subscriberCount == 1)
    probe.emit(3)
    #expect(alive.events == [3])
    #expect(probe.stops == 0)
  }

  @Test func respondersThatDeinitialisedAreNoticedWhenALaterSubscribePrunes() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    do {
      // 63 responders, then a 64th subscription: the output prunes when it reaches 64 subscriptions.
      let recorders = (0..<63).map { _ in Recorder<Int>() }
      for recorder in recorders {
        broadcaster.subscribe(recorder)
      }
    }
    let token = broadcaster.subscribe { _ in }
    #expect(broadcaster.isConnected)
    token.cancel()
    // No event and no `subscriberCount`: the prune at the 64th subscribe already removed the dead responders.
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
  }

  @Test func aResponderThatCancelsItsSubscriptionInDeinitDisconnectsAtOnce() {
    final class Screen: Sendable {
      let subscription = LockedState<ResponderSubscription?>(nil)
      deinit { subscription.withLock { $0 }?.cancel() }
    }
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    do {
      let screen = Screen()
      let handle = broadcaster.subscribe(screen) { _, _ in }
      screen.subscription.withLock { $0 = handle }
      #expect(broadcaster.isConnected)
    }
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
  }

  @Test func subscribingFromInsideTheSourcesStartDoesNotDeadlock() async {
    let box = LockedState<Broadcaster<Int>?>(nil)
    let inner = Log<Int>()
    let innerTokens = LockedState<[EventSubscription]>([])
    let (broadcaster, probe) = Broadcaster<Int>.recording { sink in
      guard let broadcaster = box.withLock({ $0 }) else { return }
      let token = broadcaster.subscribe { inner.append($0) }
      innerTokens.withLock { $0.append(token) }
      sink.send(0)  // an event during start reaches the subscribers already there
    }
    box.withLock { $0 = broadcaster }
    let outer = Log<Int>()
    let finished = await withWatchdog {
      let token = broadcaster.subscribe { outer.append($0) }
      probe.emit(1)
      token.cancel()
    }
    #expect(finished)
    #expect(outer.elements == [0, 1])
    #expect(inner.elements == [0, 1])
    #expect(broadcaster.connectCount == 1)
    #expect(broadcaster.isConnected)  // the subscription made inside start is still there
    innerTokens.withLock { $0.removeAll() }
    #expect(!broadcaster.isConnected)
    #expect(probe.alternated)
    box.withLock { $0 = nil }
  }

  @Test func subscribingAndCancellingFromAHandlerDoesNotDeadlock() async {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let later = Log<Int>()
    let tokens = LockedState<[EventSubscription]>([])
    let selfToken = LockedState<EventSubscription?>(nil)
    let finished = await withWatchdog {
      let token = broadcaster.subscribe { value in
        guard value == 1 else { return }
        let added = broadcaster.subscribe { later.append($0) }
        tokens.withLock { $0.append(added) }
        selfToken.withLock { $0 }?.cancel()
        _ = broadcaster.isConnected
        _ = broadcaster.subscriberCount
      }
      selfToken.withLock { $0 = token }
      probe.emit(1)
      probe.emit(2)
    }
    #expect(finished)
    #expect(later.elements == [2])  // G5: added during delivery of 1, receives the next
    #expect(broadcaster.connectCount == 1)
    #expect(broadcaster.isConnected)
    tokens.withLock { $0.removeAll() }
    selfToken.withLock { $0 = nil }
    #expect(!broadcaster.isConnected)
  }

  @Test func aHandlerThatCancelsTheLastSubscriptionDisconnectsFromInsideTheEvent() async {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let received = Log<Int>()
    let tokenBox = LockedState<EventSubscription?>(nil)
    let finished = await withWatchdog {
      let token = broadcaster.subscribe { value in
        received.append(value)
        tokenBox.withLock { $0 }?.cancel()
      }
      tokenBox.withLock { $0 = token }
      probe.emit(1)
    }
    #expect(finished)
    #expect(received.elements == [1])
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
    tokenBox.withLock { $0 = nil }
  }

  @Test func eventsFromAStoppedConnectionAreDropped() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let first = broadcaster.subscribe { _ in }
    let staleSink = probe.sink
    first.cancel()
    let log = Log<Int>()
    let second = broadcaster.subscribe { log.append($0) }
    staleSink?.send(1)
    staleSink?.reportFailure(DecodeFailure(reason: .missingKey))
    probe.emit(2)
    #expect(log.elements == [2])
    #expect(broadcaster.upstreamEventCount == 1)
    #expect(broadcaster.decodeFailureCount == 0)
    second.cancel()
  }

  @Test func reportedFailuresAreCountedAndHookedButNotDelivered() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let failures = Log<DecodeFailure>()
    broadcaster.onDecodeFailure = { failures.append($0) }
    let log = Log<Int>()
    let token = broadcaster.subscribe { log.append($0) }
    let failure = DecodeFailure(name: "payload", key: "size", reason: .wrongType(expected: "Int", found: "String"))
    probe.sink?.reportFailure(failure)
    probe.emit(1)
    #expect(log.elements == [1])
    #expect(broadcaster.decodeFailureCount == 1)
    #expect(failures.elements == [failure])
    #expect(failure.description == "cannot decode payload, key size: expected Int, found String")
    token.cancel()
  }

  @Test func operatorsAndDeliveryContextsWorkOnABroadcaster() {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let queue = DispatchQueue(label: "BroadcasterTests.queue")
    let strings = Log<String>()
    let queued = Log<Int>()
    let mapped = broadcaster.filter { $0 > 1 }.map { "#\($0)" }.subscribe { strings.append($0) }
    let onQueue = broadcaster.subscribe(on: .queue(queue)) { queued.append($0) }
    #expect(probe.starts == 1)
    for value in 1...3 {
      probe.emit(value)
    }
    queue.sync {}
    #expect(strings.elements == ["#2", "#3"])
    #expect(queued.elements == [1, 2, 3])
    mapped.cancel()
    onQueue.cancel()
    #expect(!broadcaster.isConnected)
  }

  @Test func valuesConnectsWhileIteratedAndDisconnectsWhenTheTaskIsCancelled() async {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let received = Log<Int>()
    let stream = broadcaster.values
    #expect(broadcaster.isConnected)
    let task = Task {
      for await value in stream { received.append(value) }
    }
    probe.emit(1)
    probe.emit(2)
    #expect(await eventually { received.count == 2 })
    #expect(received.elements == [1, 2])
    task.cancel()
    await task.value
    #expect(!broadcaster.isConnected)
    #expect(probe.stops == 1)
  }

  @Test func debugDescriptionShowsTheConnectionAndTheSubscribers() {
    let (broadcaster, _) = Broadcaster<Int>.recording()
    let recorder = Recorder<Int>()
    broadcaster.subscribe(recorder)
    let description = broadcaster.debugDescription
    #expect(description.contains("Broadcaster<Int>: connected, 1 connect, 0 disconnects"))
    #expect(description.contains("1 subscriber"))
    #expect(description.contains("BroadcasterTests.swift:"))
  }
}
