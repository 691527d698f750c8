import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G11: a subscription chooses where its handler runs (immediately, on a `DispatchQueue`, on the main actor), and
/// each subscriber sees its events in order in every context. Queued events of a cancelled subscription are dropped.
@Suite struct DeliveryContextTests {
  private struct Tagged: Sendable, Equatable {
    var sender: Int
    var sequence: Int
  }

  @MainActor private final class Screen {
    var events: [Int] = []
    var offMainQueue = 0

    func render(_ event: Int) {
      if !isOnMainQueue { offMainQueue += 1 }
      events.append(event)
    }
  }

  @MainActor private final class ScreenResponder: MainActorEventResponder {
    var events: [Int] = []

    func handle(event: Int) {
      events.append(event)
    }
  }

  @Test func immediateHandlerRunsOnTheSendingThreadBeforeSendReturns() async {
    let output = Output<Int>()
    let threads = Log<String>()
    let token = output.subscribe { _ in threads.append(Thread.current.name ?? "") }
    await runOnThread {
      Thread.current.name = "sender"
      output.send(1)
      threads.append("returned")
    }
    #expect(threads.elements == ["sender", "returned"])
    withExtendedLifetime(token) {}
  }

  @Test func queueHandlerRunsOnTheGivenQueue() {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "target")
    queue.setSpecific(key: key, value: "target")
    let output = Output<Int>()
    let places = Log<String?>()
    let responder = Recorder<Int>()
    output.subscribe(responder, on: .queue(queue)) { _, _ in places.append(DispatchQueue.getSpecific(key: key)) }
    let token = output.subscribe(on: .queue(queue)) { _ in places.append(DispatchQueue.getSpecific(key: key)) }
    output.send(1)
    queue.sync {}
    #expect(places.elements == ["target", "target"])
    withExtendedLifetime(token) {}
  }

  @Test func queueDeliveryKeepsOrderAndDropsEventsAfterCancel() async {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
    let recorder = Recorder<Int>()
    let handle = output.subscribe(recorder, on: .queue(queue)) { recorder, value in recorder.handle(event: value) }
    for value in 0..<1000 { output.send(value) }
    #expect(await suspendUntil { recorder.events.count == 1000 })
    #expect(recorder.events == Array(0..<1000))
    handle.cancel()
    output.send(5000)
    queue.sync(flags: .barrier) {}
    #expect(recorder.events.count == 1000)
  }

  @Test func everyContextKeepsPerSubscriberOrderUnderConcurrentSends() async {
    // Four threads send; an immediate subscriber records the order the output delivered. A serial-queue, a
    // concurrent-queue and a main-actor subscriber must each see exactly that order, one event at a time.
    let output = Output<Tagged>()
    let reference = Recorder<Tagged>()
    output.subscribe(reference)
    let serial = DispatchQueue(label: "serial")
    let concurrent = DispatchQueue(label: "concurrent", attributes: .concurrent)
    let serialLog = Log<Tagged>()
    let concurrentLog = Log<Tagged>()
    let mainLog = Log<Tagged>()
    let offMain = Counter()
    let concurrentGauge = ConcurrencyGauge()
    var tokens: [EventSubscription] = []
    output.subscribe(on: .queue(serial)) { serialLog.append($0) }.store(in: &tokens)
    output.subscribe(on: .queue(concurrent)) { event in
      concurrentGauge.measure {
        concurrentLog.append(event)
        usleep(event.sequence % 50 == 0 ? 100 : 0)
      }
    }.store(in: &tokens)
    output.subscribe(on: .main) { event in
      if !isOnMainQueue { offMain.increment() }
      mainLog.append(event)
    }.store(in: &tokens)
    let perSender = stress(2000)
    guard
      await runConcurrently(
        threads: 4,
        { sender in
          for sequence in 0..<perSender { output.send(Tagged(sender: sender, sequence: sequence)) }
        })
    else { return }
    let total = 4 * perSender
    let arrived = await suspendUntil {
      serialLog.count == total && concurrentLog.count == total && mainLog.count == total
    }
    #expect(arrived, "serial \(serialLog.count), concurrent \(concurrentLog.count), main \(mainLog.count) of \(total)")
    let order = reference.events
    #expect(order.count == total)
    #expect(serialLog.elements == order, "G11: the serial-queue subscriber saw another order")
    #expect(concurrentLog.elements == order, "G11: the concurrent-queue subscriber saw another order")
    #expect(mainLog.elements == order, "G11: the main-actor subscriber saw another order")
    #expect(concurrentGauge.maximum == 1, "G11: one subscriber ran two events at once on a concurrent queue")
    #expect(offMain.current == 0)
  }

  @Test func concurrentQueueRunsOneSubscribersEventsOneAtATimeInOrder() async {
    // The first event's handler lingers; a concurrent queue has idle threads that could start the next ones at once,
    // but for one subscriber they must wait, and run in order. (The test suspends rather than blocks while it waits:
    // on Linux the concurrent queues and the test's own tasks share one small pool of threads.)
    let output = Output<Int>()
    let queue = DispatchQueue(label: "wide", attributes: .concurrent)
    let gauge = ConcurrencyGauge()
    let log = Log<Int>()
    let token = output.subscribe(on: .queue(queue)) { event in
      gauge.measure {
        if event == 0 { usleep(50_000) }
        log.append(event)
      }
    }
    for event in 0..<20 { output.send(event) }
    #expect(await suspendUntil { log.count == 20 })
    #expect(log.elements == Array(0..<20), "G11: one subscriber's events ran out of order on a concurrent queue")
    #expect(gauge.maximum == 1, "G11: one subscriber ran \(gauge.maximum) events at once on a concurrent queue")
    withExtendedLifetime(token) {}
  }

  @Test func cancelDropsBlocksAlreadyQueued() {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "blocked")
    let release = DispatchSemaphore(value: 0)
    queue.async { _ = release.wait(timeout: .now() + 30) }
    let received = Log<Int>()
    let token = output.subscribe(on: .queue(queue)) { received.append($0) }
    let responder = Recorder<Int>()
    let handle = output.subscribe(responder, on: .queue(queue)) { responder, event in responder.handle(event: event) }
    output.send(1)
    output.send(2)
    token.cancel()
    handle.cancel()
    release.signal()
    queue.sync {}
    #expect(received.elements.isEmpty, "G4/G11: a block queued before cancel() delivered \(received.elements)")
    #expect(responder.events.isEmpty, "G4/G11: a block queued before cancel() delivered \(responder.events)")
  }

  @Test func queuedEventsAreDroppedWhenTheResponderDeinitialises() async {
    struct Event: Sendable {}
    do {
      let output = Output<Event>()
      let queue = DispatchQueue(label: "blocked")
      let release = DispatchSemaphore(value: 0)
      queue.async { _ = release.wait(timeout: .now() + 30) }
      let calls = Counter()
      do {
        let responder = Recorder<Event>()
        output.subscribe(responder, on: .queue(queue)) { _, _ in calls.increment() }
        output.send(Event())
        output.send(Event())
      }
      release.signal()
      queue.sync {}
      #expect(calls.current == 0, "G4: a responder that deinitialised was called from its queue")
      #expect(output.subscriberCount == 0)
    }
    await expectNoLiveObjects(for: Event.self)
  }

  @Test func mainActorResponderReceivesEventsOnTheMainActorInOrder() async {
    let output = Output<Int>()
    let screen = await MainActor.run { Screen() }
    // The handler is `@MainActor`: it calls the screen's main-actor method without `assumeIsolated`.
    output.subscribe(screen, on: .main) { screen, event in screen.render(event) }
    await runOnThread {
      for value in 0..<100 { output.send(value) }
    }
    let arrived = await suspendUntil { await MainActor.run { screen.events.count == 100 } }
    #expect(arrived)
    #expect(await screen.events == Array(0..<100))
    #expect(await screen.offMainQueue == 0)
  }

  @Test func mainActorEventResponderIsSubscribedWithoutAnyIsolationBoilerplate() async {
    let output = Output<Int>()
    let screen = await MainActor.run { ScreenResponder() }
    output.subscribe(screen)
    output.send(1)
    output.send(2)
    let arrived = await suspendUntil { await MainActor.run { screen.events.count == 2 } }
    #expect(arrived)
    #expect(await screen.events == [1, 2])
  }

  @Test func mainActorEventResponderSubscribedWithOnMainIsDeliveredOnTheMainActor() async {
    // The form the refusal of a DeliveryContext names: `subscribe(responder, on: .main)`, on an output and a hub.
    let output = Output<Int>()
    let hub = EventHub()
    let screen = await MainActor.run { ScreenResponder() }
    output.subscribe(screen, on: .main)
    hub.subscribe(Int.self, screen, on: .main)
    await runOnThread {
      output.send(1)
      hub.post(2)
    }
    let arrived = await suspendUntil { await MainActor.run { screen.events.count == 2 } }
    #expect(arrived)
    #expect(await screen.events == [1, 2])
  }

  @Test @MainActor func mainDeliveryOfAnEventSentOnTheMainActorRunsBeforeSendReturns() async {
    // After a suspension the main actor may run on the main queue from another thread (Linux, Swift Testing): the
    // handler still runs inline, because the decision is made by the queue, not the thread.
    try? await Task.sleep(nanoseconds: 1)
    let output = Output<Int>()
    let screen = Screen()
    let handle = output.subscribe(screen, on: .main) { screen, event in screen.render(event) }
    output.send(7)
    #expect(
      screen.events == [7], "G11: an event sent on the main actor was deferred (main thread: \(Thread.isMainThread))")
    await Task.yield()
    output.send(8)
    #expect(screen.events == [7, 8])
    #expect(screen.offMainQueue == 0)
    #expect(output.debugDescription.contains("main"))
    handle.cancel()
  }

  @Test @MainActor func anInlineMainDeliveryNeverOvertakesEventsQueuedForTheSameSubscriber() async {
    let output = Output<Int>()
    let screen = Screen()
    let handle = output.subscribe(screen, on: .main) { screen, event in screen.render(event) }
    // Sent from another thread while the main actor is busy here: it waits on the main queue.
    #expect(runOnThreadBlocking(timeout: watchdogTimeout) { output.send(1) })
    output.send(2)
    #expect(screen.events.isEmpty, "G11: an inline delivery overtook an event already queued for this subscriber")
    #expect(await suspendUntil { screen.events == [1, 2] })
    output.send(3)
    #expect(screen.events == [1, 2, 3], "once nothing is waiting, a send on the main actor runs inline again")
    handle.cancel()
  }

  @Test @MainActor func mainDeliveryFromAnotherThreadIsQueuedOnTheMainQueue() async {
    // The main actor is busy here while the other thread sends, so an inline delivery would be seen as a count of 1.
    let output = Output<Int>()
    let delivered = Log<Int>()
    let token = output.subscribe(on: .main) { delivered.append($0) }
    let countWhenSendReturned = LockedState(-1)
    #expect(
      runOnThreadBlocking(timeout: watchdogTimeout) {
        output.send(1)
        countWhenSendReturned.withLock { $0 = delivered.count }
      })
    #expect(await suspendUntil { delivered.elements == [1] })
    #expect(countWhenSendReturned.withLock { $0 } == 0, "a send off the main queue ran the main-actor handler inline")
    token.cancel()
  }

  @Test @MainActor func cancelDropsMainQueueBlocksAlreadyQueued() async {
    // Events sent from another thread wait on the main queue; the main actor (this test) cancels before yielding.
    let output = Output<Int>()
    let screen = Screen()
    let handle = output.subscribe(screen, on: .main) { screen, event in screen.render(event) }
    let log = Log<Int>()
    let token = output.subscribe(on: .main) { log.append($0) }
    #expect(
      runOnThreadBlocking(timeout: watchdogTimeout) {
        output.send(1)
        output.send(2)
      })
    handle.cancel()
    token.cancel()
    // The drain blocks were queued before this one; once it runs, they have run.
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    #expect(screen.events.isEmpty, "G4/G11: a main-queue block queued before cancel() delivered \(screen.events)")
    #expect(log.elements.isEmpty)
  }

  @Test @MainActor func mainSubscriberKeepsOrderWhenTheMainThreadAndAnotherThreadSendTogether() async {
    // Events sent on the main thread may run inline, the others are queued; the subscriber still sees the output's
    // delivery order.
    let output = Output<Tagged>()
    let reference = Recorder<Tagged>()
    output.subscribe(reference)
    let mainLog = Log<Tagged>()
    let token = output.subscribe(on: .main) { mainLog.append($0) }
    let count = stress(2000)
    let done = DispatchSemaphore(value: 0)
    Thread {
      for sequence in 0..<count { output.send(Tagged(sender: 1, sequence: sequence)) }
      done.signal()
    }.start()
    for sequence in 0..<count {
      output.send(Tagged(sender: 0, sequence: sequence))
      if sequence % 10 == 0 { await Task.yield() }
    }
    #expect(await suspendUntil { done.wait(timeout: .now()) == .success })
    #expect(await suspendUntil { mainLog.count == 2 * count })
    #expect(mainLog.elements == reference.events)
    withExtendedLifetime(token) {}
  }
}
