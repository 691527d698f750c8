import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// Events that wait together in a queue's lane are delivered as a run, for which the lane holds its subscribers'
/// responders once rather than loading each weakly for each event. These tests hold the queue while a burst is sent,
/// so that the burst waits whole and is delivered as one run, and check that the run changes nothing a subscriber can
/// see: a responder its owners let go mid-run gets nothing more and deinitialises at once (G4, G6), cancels and
/// additions mid-run act as without a run (G4, G5), and nothing is held once the run is over.
@Suite struct QueuedRunTests {
  /// A responder that logs its events and its deinit under its name.
  final class Screen: Sendable {
    let name: String
    let log: Log<String>
    let onDeinit: @Sendable () -> Void

    init(_ name: String, log: Log<String>, onDeinit: @escaping @Sendable () -> Void = {}) {
      self.name = name
      self.log = log
      self.onDeinit = onDeinit
    }

    func handle(_ event: Int) {
      log.append("\(name) \(event)")
    }

    deinit {
      log.append("\(name) deinit")
      onDeinit()
    }
  }

  /// Holds `queue` until the returned closure is called, so that what is sent meanwhile waits in the lane together.
  private static func hold(_ queue: DispatchQueue) -> @Sendable () -> Void {
    let release = DispatchSemaphore(value: 0)
    queue.async { _ = release.wait(timeout: .now() + watchdogTimeout) }
    return { release.signal() }
  }

  /// Sends `events` on a thread of their own while `queue` is held, then lets the queue go and waits for its drain.
  private static func sendBurst(
    _ events: Range<Int>, to output: Output<Int>, on queue: DispatchQueue,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Bool {
    let release = hold(queue)
    let sent = await runOnThread(sourceLocation: sourceLocation) {
      for event in events {
        output.send(event)
      }
    }
    release()
    guard sent else { return false }
    return await runOnThread(sourceLocation: sourceLocation) { queue.sync {} }
  }

  /// An output whose first subscriber, screen A, lets screen B go when it handles `event`: `letGo` drops B's only
  /// owner, a slot. B is subscribed by ``subscribeB(adding:)``, once or more, after whatever the test adds between.
  private struct LetGoMidRun {
    let output = Output<Int>()
    let log = Log<String>()
    let context: DeliveryContext
    let owner: Slot<Screen>
    let first: Screen

    init(
      on context: DeliveryContext, at event: Int,
      letGo: @escaping @Sendable (Slot<Screen>) -> Void = { $0.put(nil) },
      onDeinitOfB: @escaping @Sendable (Output<Int>) -> Void = { _ in }
    ) {
      self.context = context
      let (output, log) = (output, log)
      owner = Slot(Screen("B", log: log) { onDeinitOfB(output) })
      first = Screen("A", log: log)
      let (owner, letGoAt) = (owner, event)
      output.subscribe(first, on: context) { screen, event in
        screen.handle(event)
        if event == letGoAt {
          letGo(owner)
        }
      }
    }

    /// Subscribes B, whose handler logs each event plus `adding`.
    func subscribeB(adding offset: Int = 0) {
      output.subscribe(owner.value!, on: context) { screen, event in screen.handle(event + offset) }
    }
  }

  @Test func responderLetGoByAnEarlierSubscriberMidRunGetsNothingMoreAndDeinitialisesAtOnce() async {
    let queue = DispatchQueue(label: "run")
    let run = LetGoMidRun(on: .queue(queue), at: 2)
    run.subscribeB()

    #expect(await Self.sendBurst(0..<5, to: run.output, on: queue))
    #expect(run.log.elements == ["A 0", "B 0", "A 1", "B 1", "A 2", "B deinit", "A 3", "A 4"])
    #expect(run.output.subscriberCount == 1, "the dead responder's subscription was not removed")
  }

  @Test func responderSubscribedTwiceAndLetGoMidRunGetsNothingMoreThroughEitherSubscription() async {
    // The run holds the responder once for both subscriptions: held twice, it would never look let go.
    let queue = DispatchQueue(label: "run")
    let run = LetGoMidRun(on: .queue(queue), at: 2)
    run.subscribeB()
    run.subscribeB(adding: 100)

    #expect(await Self.sendBurst(0..<5, to: run.output, on: queue))
    #expect(
      run.log.elements == ["A 0", "B 0", "B 100", "A 1", "B 1", "B 101", "A 2", "B deinit", "A 3", "A 4"])
    #expect(run.output.subscriberCount == 1)
  }

  @Test func responderSubscribedTwiceAmongManyIsHeldOnce() async {
    // Among 200 other responders, so the run's search for a responder held twice must tell many addresses apart.
    let queue = DispatchQueue(label: "run")
    let run = LetGoMidRun(on: .queue(queue), at: 1)
    let others = (0..<200).map { _ in LifetimeProbe() }
    let received = Counter()
    run.subscribeB()
    for other in others {
      run.output.subscribe(other, on: .queue(queue)) { _, _ in received.increment() }
    }
    run.subscribeB(adding: 100)

    #expect(await Self.sendBurst(0..<3, to: run.output, on: queue))
    #expect(run.log.elements == ["A 0", "B 0", "B 100", "A 1", "B deinit", "A 2"])
    #expect(received.current == 3 * others.count)
    withExtendedLifetime(others) {}
  }

  @Test func mainActorResponderLetGoMidRunGetsNothingMoreAndDeinitialisesAtOnce() async {
    // The same on the main queue, whose lane runs inline on the main actor but queues what is sent from elsewhere.
    let run = LetGoMidRun(on: DeliveryContext(kind: .mainActor), at: 2)  // what `on: .main` subscribes with
    run.subscribeB()

    #expect(await Self.sendBurst(0..<5, to: run.output, on: .main))
    #expect(run.log.elements == ["A 0", "B 0", "A 1", "B 1", "A 2", "B deinit", "A 3", "A 4"])
    #expect(run.output.subscriberCount == 1)
  }

  @Test func responderLetGoOnAnotherThreadMidRunGetsNothingMoreOnceItsOwnerIsGone() async {
    // Its owner lets it go on another thread while the run holds it: it deinitialises at its next turn, on the queue,
    // where without the run the last weak load would have found it gone.
    let queue = DispatchQueue(label: "run")
    let letGo = Flag()
    let run = LetGoMidRun(on: .queue(queue), at: 2) { owner in
      if runOnThreadBlocking(timeout: watchdogTimeout, { owner.put(nil) }) {
        letGo.set()
      }
    }
    run.subscribeB()

    #expect(await Self.sendBurst(0..<5, to: run.output, on: queue))
    #expect(letGo.isSet)
    #expect(run.log.elements == ["A 0", "B 0", "A 1", "B 1", "A 2", "B deinit", "A 3", "A 4"])
    #expect(run.output.subscriberCount == 1)
  }

  @Test func runHoldsNoResponderOnceItIsOver() async {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "run")
    let log = Log<String>()
    let owner = Slot<Screen>(Screen("A", log: log))
    output.subscribe(owner.value!, on: .queue(queue)) { screen, event in screen.handle(event) }

    #expect(await Self.sendBurst(0..<3, to: output, on: queue))
    owner.put(nil)
    // The owner's release was the last: the deinit ran in it, not later in a lane.
    #expect(log.elements == ["A 0", "A 1", "A 2", "A deinit"])
  }

  @Test func responderWhoseDeinitSendsWhenTheRunLetsItGoIsDeliveredAfterTheBurst() async {
    // The run's release runs the deinit inside the drain; the deinit's send must not wait for a lock the drain holds,
    // and its event comes after the burst (G3, G8).
    let queue = DispatchQueue(label: "run")
    let run = LetGoMidRun(on: .queue(queue), at: 1, onDeinitOfB: { $0.send(99) })
    run.subscribeB()

    #expect(await Self.sendBurst(0..<3, to: run.output, on: queue))
    #expect(await runOnThread { queue.sync {} })
    #expect(run.log.elements == ["A 0", "B 0", "A 1", "B deinit", "A 2", "A 99"])
  }

  @Test func subscriptionsCancelledMidRunGetNothingMore() async {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "run")
    let log = Log<String>()
    let first = Screen("A", log: log)
    let second = Screen("B", log: log)
    let subscription = Slot<ResponderSubscription>()
    let token = Slot<EventSubscription>()
    output.subscribe(first, on: .queue(queue)) { screen, event in
      screen.handle(event)
      if event == 1 {
        subscription.value?.cancel()
        token.value?.cancel()
      }
    }
    subscription.put(output.subscribe(second, on: .queue(queue)) { screen, event in screen.handle(event) })
    token.put(output.subscribe(on: .queue(queue)) { event in log.append("C \(event)") })

    #expect(await Self.sendBurst(0..<3, to: output, on: queue))
    #expect(log.elements == ["A 0", "B 0", "C 0", "A 1", "A 2"])
    #expect(output.subscriberCount == 1)
    withExtendedLifetime((first, second)) {}
  }

  @Test func subscriberAddedMidRunGetsOnlyWhatIsSentAfterIt() async {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "run")
    let log = Log<String>()
    let first = Screen("A", log: log)
    let late = Screen("D", log: log)
    output.subscribe(first, on: .queue(queue)) { [weak output] screen, event in
      screen.handle(event)
      if event == 1, let output {
        output.subscribe(late, on: .queue(queue)) { screen, event in screen.handle(event) }
        output.send(10)
      }
    }

    #expect(await Self.sendBurst(0..<3, to: output, on: queue))
    #expect(await runOnThread { queue.sync {} })
    #expect(log.elements == ["A 0", "A 1", "A 2", "A 10", "D 10"])
    withExtendedLifetime((first, late)) {}
  }

  @Test func burstsSplitBySubscribingAreEachDeliveredInOrder() async {
    // The waiting events belong to two lists: the run ends where the list changes.
    let output = Output<Int>()
    let queue = DispatchQueue(label: "run")
    let log = Log<String>()
    let first = Screen("A", log: log)
    let late = Screen("D", log: log)
    output.subscribe(first, on: .queue(queue)) { screen, event in screen.handle(event) }

    let release = Self.hold(queue)
    let sent = await runOnThread {
      output.send(0)
      output.send(1)
      output.subscribe(late, on: .queue(queue)) { screen, event in screen.handle(event) }
      output.send(2)
      output.send(3)
    }
    release()
    #expect(sent)
    #expect(await runOnThread { queue.sync {} })
    #expect(log.elements == ["A 0", "A 1", "A 2", "D 2", "A 3", "D 3"])
    withExtendedLifetime((first, late)) {}
  }

  @Test func respondersChurnedWhileBurstsAreDeliveredAreNeverCalledAfterTheirDeinitBegins() async {
    // Real threads, started together: one sends bursts to a queue, one lets short-lived responders go while the
    // queue delivers to them, from a barrier on. A steady responder counts every event exactly once; no churned
    // responder is called once its deinit has begun (G4).
    final class Churned: Sendable {
      let deinitBegun = Flag()
      let violations: Counter

      init(violations: Counter) {
        self.violations = violations
      }

      func handle() {
        if deinitBegun.isSet {
          _ = violations.increment()
        }
      }

      deinit {
        deinitBegun.set()
      }
    }

    let output = Output<Int>()
    let queue = DispatchQueue(label: "run")
    let steady = Counter()
    let violations = Counter()
    let anchor = LifetimeProbe()
    output.subscribe(anchor, on: .queue(queue)) { _, _ in _ = steady.increment() }
    let rounds = stress(200)
    let burst = 20
    let finished = await runInLockstep(threads: 2, rounds: rounds) { thread, _ in
      if thread == 0 {
        for event in 0..<burst {
          output.send(event)
        }
      } else {
        var churned: [Churned] = []
        for _ in 0..<4 {
          let responder = Churned(violations: violations)
          output.subscribe(responder, on: .queue(queue)) { responder, _ in responder.handle() }
          churned.append(responder)
        }
        churned.removeAll()
      }
    }
    #expect(finished)
    #expect(await runOnThread { queue.sync {} })
    #expect(steady.current == rounds * burst)
    #expect(violations.current == 0)
    withExtendedLifetime(anchor) {}
  }
}
