import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

@Suite struct EventObserverTests {
  /// A responder that records what its observer hands it.
  final class Screen: Sendable {
    let log = Log<Int>()
  }

  @Test func isCreatedStoppedAndDeliversNothingUntilStarted() {
    let output = Output<Int>()
    let screen = Screen()
    let observer = EventObserver(output, responder: screen) { screen, value in screen.log.append(value) }
    output.send(1)
    #expect(!observer.isObserving)
    #expect(output.subscriberCount == 0)
    observer.startObserving()
    output.send(2)
    #expect(observer.isObserving)
    #expect(screen.log.elements == [2])
  }

  @Test func stopEndsDeliveryAndStartResumesIt() {
    let output = Output<Int>()
    let screen = Screen()
    let observer = EventObserver(output, responder: screen) { screen, value in screen.log.append(value) }
    observer.startObserving()
    output.send(1)
    observer.stopObserving()
    output.send(2)
    #expect(!observer.isObserving)
    #expect(output.subscriberCount == 0)
    observer.startObserving()
    output.send(3)
    #expect(screen.log.elements == [1, 3])
  }

  @Test func startingTwiceSubscribesOnceAndNeverDoublesDeliveries() {
    let output = Output<Int>()
    let screen = Screen()
    let observer = EventObserver(output, responder: screen) { screen, value in screen.log.append(value) }
    observer.startObserving()
    observer.startObserving()
    #expect(output.subscriberCount == 1)
    output.send(1)
    #expect(screen.log.elements == [1])
  }

  @Test func stoppingTwiceOrStoppingAStoppedObserverIsHarmless() {
    let output = Output<Int>()
    let screen = Screen()
    let observer = EventObserver(output, responder: screen) { screen, value in screen.log.append(value) }
    observer.stopObserving()
    observer.startObserving()
    observer.stopObserving()
    observer.stopObserving()
    #expect(!observer.isObserving)
    output.send(1)
    observer.startObserving()
    output.send(2)
    #expect(screen.log.elements == [2])
  }

  @Test func anObserverWhoseResponderGoesAwayStopsItselfForGood() {
    enum Probe: Sendable { case ping }
    let output = Output<Probe>()
    let log = Log<Probe>()
    let observer: EventObserver<Probe, Screen>
    weak var weakScreen: Screen?
    do {
      let screen = Screen()
      weakScreen = screen
      observer = EventObserver(output, responder: screen) { _, event in log.append(event) }
      observer.startObserving()
      output.send(.ping)
      #expect(observer.isObserving)
    }
    #expect(weakScreen == nil)
    #expect(observer.responder == nil)
    #expect(!observer.isObserving)
    output.send(.ping)
    #expect(output.subscriberCount == 0)
    observer.startObserving()
    #expect(!observer.isObserving)
    #expect(output.subscriberCount == 0)
    output.send(.ping)
    #expect(log.elements == [.ping])
    #expect(LiveObjects.count("Output.Entry", for: Probe.self) == 0)
  }

  @Test func theObserverNeverKeepsItsResponderAlive() {
    let output = Output<Int>()
    weak var weakScreen: Screen?
    var observer: EventObserver<Int, Screen>?
    do {
      let screen = Screen()
      weakScreen = screen
      observer = EventObserver(output, responder: screen) { screen, value in screen.log.append(value) }
      observer?.startObserving()
    }
    #expect(weakScreen == nil)
    #expect(observer?.isObserving == false)
    observer = nil
  }

  @Test func releasingTheObserverEndsItsSubscriptionAndFreesEverything() {
    enum Probe: Sendable { case ping }
    let output = Output<Probe>()
    let screen = Screen()
    weak var weakObserver: EventObserver<Probe, Screen>?
    do {
      let observer = EventObserver(output, responder: screen) { screen, _ in screen.log.append(1) }
      weakObserver = observer
      observer.startObserving()
      output.send(.ping)
    }
    #expect(weakObserver == nil)
    #expect(output.subscriberCount == 0)
    output.send(.ping)
    #expect(screen.log.elements == [1])
    #expect(LiveObjects.count("Output.Entry", for: Probe.self) == 0)
  }

  @Test func startDeliversTheReplayedStateBeforeReturning() {
    let isSignedIn = Output<Bool>(replay: 1)
    isSignedIn.send(true)
    let screen = Screen()
    let observer = EventObserver(isSignedIn, responder: screen) { screen, value in screen.log.append(value ? 1 : 0) }
    observer.startObserving()
    #expect(screen.log.elements == [1])
  }

  @Test func stoppingFromInsideTheHandlerDuringTheReplayDeliversNothingMore() {
    let output = Output<Int>(replay: 3)
    for value in 1...3 { output.send(value) }
    let screen = Screen()
    let observerBox = LockedState<EventObserver<Int, Screen>?>(nil)
    let observer = EventObserver(output, responder: screen) { screen, value in
      screen.log.append(value)
      observerBox.withLock { $0 }?.stopObserving()
    }
    observerBox.withLock { $0 = observer }
    observer.startObserving()
    output.send(4)
    #expect(screen.log.elements == [1])
    #expect(!observer.isObserving)
    #expect(output.subscriberCount == 0)
    let released = observerBox.withLock { box in
      defer { box = nil }
      return box
    }
    _ = released
  }

  @Test func afterStopReturnsEventsAlreadyQueuedForTheHandlerAreDropped() {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "observer-test")
    let screen = Screen()
    let observer = EventObserver(output, responder: screen, on: .queue(queue)) { screen, value in
      screen.log.append(value)
    }
    observer.startObserving()
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }
    for value in 0..<10 { output.send(value) }
    observer.stopObserving()
    gate.signal()
    queue.sync {}
    #expect(screen.log.elements.isEmpty)
  }

  @Test func observesReadOnlyOutputsOperatorChainsAndHubEvents() {
    struct Tapped: Sendable { let count: Int }
    let output = Output<Int>()
    let hub = EventHub()
    let screen = Screen()
    let composition = ObserverComposition(
      EventObserver(output.readOnly, responder: screen) { screen, value in screen.log.append(value) },
      EventObserver(output.map { $0 * 10 }.removeDuplicates(), responder: screen) { screen, value in
        screen.log.append(value)
      },
      EventObserver(hub.events(of: Tapped.self), responder: screen) { screen, event in screen.log.append(event.count) }
    )
    composition.startObserving()
    output.send(1)
    output.send(1)
    hub.post(Tapped(count: 7))
    #expect(screen.log.elements == [1, 10, 1, 7])
    composition.stopObserving()
    #expect(hub.subscriberCount(for: Tapped.self) == 0)
    #expect(output.subscriberCount == 0)
  }

  @Test func anEventResponderIsObservedThroughItsHandleMethod() {
    let output = Output<Int>()
    let recorder = Recorder<Int>()
    let observer = EventObserver(output, responder: recorder)
    observer.startObserving()
    output.send(5)
    #expect(recorder.events == [5])
  }

  @MainActor
  @Test func mainContextRunsTheHandlerOnTheMainActor() async {
    @MainActor final class MainScreen {
      var values: [Int] = []
    }
    let output = Output<Int>()
    let screen = MainScreen()
    let observer = EventObserver(output, responder: screen, on: .main) { screen, value in screen.values.append(value) }
    observer.startObserving()
    Thread.detachNewThread {
      output.send(1)
      output.send(2)
    }
    #expect(await eventually { screen.values.count == 2 })
    #expect(screen.values == [1, 2])
  }

  @MainActor
  @Test func aMainActorEventResponderIsObservedOnTheMainActor() async {
    @MainActor final class MainScreen: MainActorEventResponder {
      var values: [Int] = []
      func handle(event: Int) { values.append(event) }
    }
    let output = Output<Int>()
    let screen = MainScreen()
    let observer = EventObserver(output, responder: screen)
    observer.startObserving()
    output.send(1)
    Thread.detachNewThread { output.send(2) }
    #expect(await eventually { screen.values.count == 2 })
    #expect(screen.values == [1, 2])
    observer.stopObserving()
  }

  @Test func concurrentStartsAndStopsNeverDeliverAnEventTwiceAndEndConsistent() async {
    enum Probe: Sendable { case ping }
    let output = Output<Int>()
    let probe = Output<Probe>()
    let screen = Screen()
    let observer = EventObserver(output, responder: screen) { screen, value in screen.log.append(value) }
    let probeObserver = EventObserver(probe, responder: screen) { _, _ in }
    let iterations = stressIterations(2_000)
    await runConcurrently(threads: 4) { thread in
      for iteration in 0..<iterations {
        if thread == 0 {
          output.send(iteration)
        } else if (iteration + thread).isMultiple(of: 2) {
          observer.startObserving()
          probeObserver.startObserving()
        } else {
          observer.stopObserving()
          probeObserver.stopObserving()
        }
      }
    }
    // A start that loses a race with a stop may subscribe for a moment, but its handler never runs.
    let values = screen.log.elements
    #expect(Set(values).count == values.count)
    observer.stopObserving()
    probeObserver.stopObserving()
    #expect(output.subscriberCount == 0)
    #expect(LiveObjects.count("Output.Entry", for: Probe.self) == 0)
    observer.startObserving()
    #expect(output.subscriberCount == 1)
    let before = screen.log.count
    output.send(-1)
    #expect(screen.log.count == before + 1)
  }
}
