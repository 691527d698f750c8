import Testing

@testable import EventBus

/// G6: a responder subscription holds the responder weakly; dead entries are pruned without the user doing anything,
/// and memory does not grow with subscribe/deinit churn.
///
/// Each test uses its own event type so that `LiveObjects`, counted per event type, is not disturbed by tests
/// running in parallel.
@Suite struct OutputLifetimeTests {
  @Test func responderIsHeldWeakly() {
    struct Event: Sendable {}
    let output = Output<Event>()
    weak var weakResponder: Recorder<Event>?
    do {
      let responder = Recorder<Event>()
      weakResponder = responder
      output.subscribe(responder)
      output.subscribe(responder) { _, _ in }
      output.map { $0 }.subscribe(responder) { _, _ in }
    }
    #expect(weakResponder == nil, "G6: the output keeps the responder alive")
  }

  @Test(.countsLiveObjects) func responderDeinitEndsSubscriptionAndFreesItsEntry() {
    struct Event: Sendable {}
    let output = Output<Event>()
    do {
      let recorder = Recorder<Event>()
      output.subscribe(recorder)
      output.send(Event())
      #expect(recorder.events.count == 1)
      #expect(LiveObjects.count("Output.Entry", for: Event.self) == 1)
    }
    #expect(output.subscriberCount == 0)
    #expect(LiveObjects.count("Output.Entry", for: Event.self) == 1, "reading the count removed the entry")
    output.pruneDeadSubscribers()
    #expect(LiveObjects.count("Output.Entry", for: Event.self) == 0)
  }

  @Test(.countsLiveObjects) func deadEntriesArePrunedByTheNextSendWithoutUserAction() {
    struct Event: Sendable {}
    let output = Output<Event>()
    let survivor = Recorder<Event>()
    output.subscribe(survivor)
    do {
      let dying = (0..<10).map { _ in Recorder<Event>() }
      for responder in dying {
        output.subscribe(responder)
      }
    }
    #expect(LiveObjects.count("Output.Entry", for: Event.self) == 11)
    output.send(Event())
    #expect(
      LiveObjects.count("Output.Entry", for: Event.self) == 1,
      "a send that met ten dead responders did not free their entries")
    #expect(survivor.events.count == 1)
  }

  @Test(.countsLiveObjects) func subscribeDeinitChurnKeepsTheEntryCountBounded() {
    // No sends and no subscriberCount reads: only the output's own pruning on subscribe can keep this bounded.
    struct Event: Sendable {}
    let output = Output<Event>()
    let survivor = Recorder<Event>()
    output.subscribe(survivor)
    let cycles = stress(100_000)
    var highest = 0
    for cycle in 0..<cycles {
      do {
        let responder = Recorder<Event>()
        output.subscribe(responder)
      }
      if cycle % 16 == 0 {
        highest = max(highest, LiveObjects.count("Output.Entry", for: Event.self))
      }
    }
    #expect(highest <= 256, "G6: \(highest) entries alive at once during subscribe/deinit churn; it should stay small")
    #expect(output.subscriberCount == 1)
    output.pruneDeadSubscribers()
    #expect(LiveObjects.count("Output.Entry", for: Event.self) == 1)
  }

  @Test func subscribeCancelChurnFreesEveryEntry() async {
    struct Event: Sendable {}
    do {
      let output = Output<Event>()
      let responder = Recorder<Event>()
      for cycle in 0..<stress(20_000) {
        if cycle.isMultiple(of: 2) {
          output.subscribe { _ in }.cancel()
        } else {
          output.subscribe(responder).cancel()
        }
      }
      #expect(LiveObjects.count("Output.Entry", for: Event.self) == 0)
      #expect(output.subscriberCount == 0)
    }
    await expectNoLiveObjects(for: Event.self)
  }

  @Test func subscriptionsDoNotKeepTheOutputAlive() async {
    struct Event: Sendable {}
    weak var weakOutput: Output<Event>?
    let responder = Recorder<Event>()
    var token: EventSubscription?
    do {
      let output = Output<Event>()
      weakOutput = output
      output.subscribe(responder)
      token = output.subscribe { _ in }
    }
    #expect(weakOutput == nil, "a subscription keeps its output alive")
    token?.cancel()  // safe after the output is gone
    token = nil
    await expectNoLiveObjects(for: Event.self)
  }

  @Test func handlerAndWhatItCapturesAreReleasedWhenTheSubscriptionEnds() {
    struct Event: Sendable {}
    let output = Output<Event>()
    weak var weakCaptured: LifetimeProbe?
    var token: EventSubscription?
    do {
      let captured = LifetimeProbe()
      weakCaptured = captured
      token = output.subscribe { _ in withExtendedLifetime(captured) {} }
    }
    #expect(weakCaptured != nil)
    token?.cancel()
    #expect(weakCaptured == nil, "the cancelled subscription's handler is still alive")
    token = nil
    #expect(output.subscriberCount == 0)
  }
}
