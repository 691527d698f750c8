import EventBusTestSupport
import Testing

@testable import EventBus

/// Token-owned subscriptions live until cancelled or released; responder-owned ones until their responder goes.
@Suite struct SubscriptionTests {
  @Test func cancelIsIdempotent() {
    let output = Output<Int>()
    let log = Log<Int>()
    let token = output.subscribe { log.append($0) }
    let other = output.subscribe { _ in }
    token.cancel()
    token.cancel()
    #expect(output.subscriberCount == 1)
    output.send(1)
    #expect(log.elements.isEmpty)
    let responder = Recorder<Int>()
    let handle = output.subscribe(responder)
    handle.cancel()
    handle.cancel()
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(other) {}
  }

  @Test func releasingTheTokenCancels() {
    let output = Output<Int>()
    let log = Log<Int>()
    var token: EventSubscription? = output.subscribe { log.append($0) }
    output.send(1)
    token = nil
    output.send(2)
    #expect(log.elements == [1])
    #expect(output.subscriberCount == 0)
    _ = token
  }

  @Test func storeInSetKeepsTheSubscriptionUntilTheSetLetsGo() {
    let output = Output<Int>()
    let log = Log<Int>()
    var set = Set<EventSubscription>()
    output.subscribe { log.append($0) }.store(in: &set)
    output.subscribe { log.append($0 * 10) }.store(in: &set)
    output.send(1)
    #expect(log.elements.sorted() == [1, 10])
    #expect(set.count == 2)
    set.removeAll()
    output.send(2)
    #expect(log.count == 2)
    #expect(output.subscriberCount == 0)
  }

  @Test func storeInArrayKeepsTheSubscriptionUntilTheArrayLetsGo() {
    let output = Output<Int>()
    let log = Log<Int>()
    var array: [EventSubscription] = []
    output.subscribe { log.append($0) }.store(in: &array)
    output.send(1)
    #expect(array.count == 1)
    array.removeAll()
    output.send(2)
    #expect(log.elements == [1])
  }

  @Test func subscriptionsAreEqualOnlyToThemselves() {
    let output = Output<Int>()
    let first = output.subscribe { _ in }
    let second = output.subscribe { _ in }
    #expect(first == first)
    #expect(first != second)
    #expect(Set([first, second, first]).count == 2)
    first.cancel()
    second.cancel()
  }

  @Test func droppingTheHandleOfAResponderOwnedSubscriptionDoesNotEndIt() {
    let output = Output<Int>()
    let responder = Recorder<Int>()
    do {
      _ = output.subscribe(responder)
      output.subscribe(responder) { responder, event in responder.handle(event: event * 10) }
    }
    output.send(1)
    #expect(responder.events == [1, 10])
    #expect(output.subscriberCount == 2)
  }

  @Test func responderOwnedHandleCancelsEarly() {
    let output = Output<Int>()
    let responder = Recorder<Int>()
    let handle = output.subscribe(responder)
    output.send(1)
    handle.cancel()
    output.send(2)
    #expect(responder.events == [1])
    #expect(output.subscriberCount == 0)
  }

  @Test func closureSubscriptionRunsItsActionOnceOnCancelOrRelease() {
    let runs = Counter()
    do {
      let subscription = EventSubscription { runs.increment() }
      #expect(runs.current == 0)
      subscription.cancel()
      subscription.cancel()
    }
    #expect(runs.current == 1, "cancel twice, then release: \(runs.current) runs")
    do {
      _ = EventSubscription { runs.increment() }
    }
    #expect(runs.current == 2, "released without cancel")
  }

  @Test func closureSubscriptionRunsItsActionOnceWhenCancelledFromManyThreads() async {
    let runs = Counter()
    let rounds = stress(500)
    let subscriptions = (0..<rounds).map { _ in EventSubscription { runs.increment() } }
    guard await runInLockstep(threads: 4, rounds: rounds, { _, round in subscriptions[round].cancel() }) else { return }
    #expect(runs.current == rounds)
  }

  @Test func closureSubscriptionStoresBesideOutputSubscriptions() {
    let runs = Counter()
    var set = Set<EventSubscription>()
    EventSubscription { runs.increment() }.store(in: &set)
    let warnings = capturingEarlyReleaseWarnings {
      Output<Int>().subscribe { _ in }.store(in: &set)
      set.removeAll()  // releases the output's token unused, on purpose
    }
    #expect(runs.current == 1)
    #expect(warnings.count == 1)
  }
}
