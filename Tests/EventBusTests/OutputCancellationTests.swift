import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G4: once `cancel()` has returned, no event sent later reaches the handler, and nothing more at all reaches it on
/// the thread that cancelled; once a responder's `deinit` has begun its handler is never called; `cancel()` never
/// waits for a handler running on another thread.
@Suite struct OutputCancellationTests {
  /// One round of the race between a sender and a canceller.
  private final class CancelRace: Sendable {
    let received = Log<Int>()
    let subscription = Slot<any EventCancellable>()
    let responder = Slot<Recorder<Int>>()
    /// The clock's tick taken just after `cancel()` returned.
    let cancelReturned = LockedState(Int.max)
  }

  @Test(arguments: ["token", "responder", "queue"])
  func noEventSentAfterCancelReturnsReachesTheHandler(kind: String) async {
    // A sender thread takes a tick of a shared clock before each send and sends the tick; a canceller cancels at a
    // varying moment and takes a tick just after cancel() returned. An event whose tick is later than that was sent
    // after cancel() returned and must never arrive.
    let output = Output<Int>()
    let clock = LogicalClock()
    let queue = DispatchQueue(label: "cancel-race", attributes: .concurrent)
    let rounds = (0..<stress(400)).map { _ in CancelRace() }
    let sendsPerRound = 40
    let finished = await runInLockstep(
      threads: 2, rounds: rounds.count,
      prepare: { round in
        let race = rounds[round]
        switch kind {
        case "token":
          race.subscription.put(output.subscribe { race.received.append($0) })
        case "responder":
          let responder = Recorder<Int>()
          race.responder.put(responder)
          race.subscription.put(output.subscribe(responder) { _, event in race.received.append(event) })
        default:
          race.subscription.put(output.subscribe(on: .queue(queue)) { race.received.append($0) })
        }
      },
      { thread, round in
        let race = rounds[round]
        if thread == 0 {
          for _ in 0..<sendsPerRound { output.send(clock.tick()) }
        } else {
          if round % 4 == 0 {
            // Let at least one event through first, so every kind of subscription is cancelled mid-stream too.
            let deadline = Date().addingTimeInterval(10)
            while race.received.count == 0 && Date() < deadline { sched_yield() }
          } else {
            for _ in 0..<(round % sendsPerRound) * 20 { _ = clock.now }
          }
          race.subscription.value?.cancel()
          let tick = clock.tick()
          race.cancelReturned.withLock { $0 = tick }
        }
      })
    guard finished else { return }
    queue.sync(flags: .barrier) {}
    var late: [String] = []
    var receivedAny = 0
    for (round, race) in rounds.enumerated() {
      let cancelled = race.cancelReturned.withLock { $0 }
      let received = race.received.elements
      if !received.isEmpty { receivedAny += 1 }
      if let tooLate = received.first(where: { $0 > cancelled }) {
        late.append("round \(round): event sent at tick \(tooLate) after cancel() returned at tick \(cancelled)")
      }
    }
    #expect(late.isEmpty, "G4 (\(kind)): \(late.prefix(5))")
    #expect(receivedAny > 0, "the race never let an event through; the test proves nothing")
    #expect(output.subscriberCount == 0)
  }

  @Test func cancelFromInsideAHandlerSkipsTheCancelledSubscriberForTheRestOfTheRound() {
    let output = Output<Int>()
    let first = Log<Int>()
    let second = Log<Int>()
    let secondSubscription = Slot<EventSubscription>()
    let firstToken = output.subscribe { event in
      first.append(event)
      if event == 1 { secondSubscription.value?.cancel() }
    }
    secondSubscription.put(output.subscribe { second.append($0) })
    output.send(0)
    output.send(1)
    output.send(2)
    #expect(first.elements == [0, 1, 2])
    #expect(second.elements == [0], "the subscriber cancelled during event 1 still received it, or a later one")
    withExtendedLifetime(firstToken) {}
  }

  @Test func cancelFromInsideAHandlerDropsEventsAlreadyQueuedForThatSubscriber() {
    // While handling 0 the subscriber sends 1 and 2 (queued), then cancels itself: it gets neither; others do.
    let output = Output<Int>()
    let cancelling = Log<Int>()
    let other = Log<Int>()
    let handle = Slot<ResponderSubscription>()
    let responder = Recorder<Int>()
    handle.put(
      output.subscribe(responder) { _, event in
        cancelling.append(event)
        if event == 0 {
          output.send(1)
          output.send(2)
          handle.value?.cancel()
        }
      })
    let token = output.subscribe { other.append($0) }
    output.send(0)
    #expect(cancelling.elements == [0])
    #expect(other.elements == [0, 1, 2])
    withExtendedLifetime((responder, token)) {}
  }

  @Test func cancelFromAHandlerOfAnotherOutputOnTheDeliveringThreadSkipsTheSubscriber() {
    // outer's first handler sends on inner, whose handler (same thread, one output deeper) cancels outer's second
    // subscriber before outer reaches it.
    let outer = Output<Int>()
    let inner = Output<Int>()
    let skipped = Log<Int>()
    let victim = Slot<EventSubscription>()
    let first = outer.subscribe { _ in inner.send(0) }
    victim.put(outer.subscribe { skipped.append($0) })
    let innerToken = inner.subscribe { _ in victim.value?.cancel() }
    outer.send(7)
    #expect(skipped.elements.isEmpty, "G4: cancelled on the delivering thread but still called: \(skipped.elements)")
    withExtendedLifetime((first, innerToken)) {}
  }

  @Test func cancelDuringTheReplayStopsTheReplay() {
    // The late subscriber joins during a delivery, so its replay waits for the round to end and its handler can reach
    // its own subscription; it cancels on the first replayed event.
    let output = Output<Int>(replay: 3)
    for value in 0..<5 { output.send(value) }
    let received = Log<Int>()
    let late = Slot<EventSubscription>()
    let first = output.subscribe { event in
      guard event == 5 else { return }
      late.put(
        output.subscribe { event in
          received.append(event)
          late.value?.cancel()
        })
    }
    output.send(5)
    output.send(6)
    #expect(received.elements == [3], "the replay went on after its subscriber cancelled")
    withExtendedLifetime(first) {}
  }

  /// A responder whose `deinit` sends on the output it is subscribed to.
  private final class SendsWhileDying: Sendable {
    let deinitBegan = Flag()
    let output: Output<Int>

    init(output: Output<Int>) {
      self.output = output
    }

    deinit {
      deinitBegan.set()
      output.send(99)
    }
  }

  @Test func handlerIsNeverCalledOnceTheRespondersDeinitHasBegun() {
    // The deinit sends 99 while its own subscription is still in the output (nobody pruned it yet): the delivery
    // must not hand the dying responder to its handler.
    let output = Output<Int>()
    let calledWhileDying = Log<Int>()
    let received = Log<Int>()
    let others = Log<Int>()
    var responder: SendsWhileDying? = SendsWhileDying(output: output)
    output.subscribe(responder!) { responder, event in
      if responder.deinitBegan.isSet { calledWhileDying.append(event) }
      received.append(event)
    }
    let token = output.subscribe { others.append($0) }
    output.send(1)
    responder = nil
    output.send(2)
    #expect(
      calledWhileDying.elements.isEmpty, "G4: handler called after deinit began, with \(calledWhileDying.elements)")
    #expect(received.elements == [1])
    #expect(others.elements == [1, 99, 2])
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(token) {}
  }

  @Test(arguments: ["token", "responder", "queue"])
  func cancelDoesNotWaitForAHandlerRunningOnAnotherThread(kind: String) {
    // A handler blocks on thread A; thread B cancels. B must return while A is still blocked.
    let output = Output<Int>()
    let queue = DispatchQueue(label: "blocked-handler")
    let inHandler = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let cancelled = DispatchSemaphore(value: 0)
    let handler: @Sendable (Int) -> Void = { _ in
      inHandler.signal()
      _ = release.wait(timeout: .now() + 60)
    }
    let responder = Recorder<Int>()
    let subscription: any EventCancellable =
      switch kind {
      case "token": output.subscribe(handler)
      case "responder": output.subscribe(responder) { _, event in handler(event) }
      default: output.subscribe(on: .queue(queue), handler)
      }
    Thread { output.send(1) }.start()
    #expect(inHandler.wait(timeout: .now() + 30) == .success, "the handler never started")
    Thread {
      subscription.cancel()
      cancelled.signal()
    }.start()
    let returnedPromptly = cancelled.wait(timeout: .now() + 10) == .success
    release.signal()
    #expect(returnedPromptly, "G4: cancel() waited for a handler running on another thread")
    if !returnedPromptly {
      _ = cancelled.wait(timeout: .now() + 30)
    }
    queue.sync {}
    #expect(output.subscriberCount == 0)
    withExtendedLifetime(responder) {}
  }
}
