import Dispatch
import EventBus
import EventBusTestSupport
import Foundation
import Testing

// The code of RuntimeBehavior.md: one short, deterministic example per guarantee, each checked.

extension Documentation {
  @Suite struct RuntimeBehavior {
    // snippet: runtime-transcript
    final class Transcript: Sendable {
      // Handlers may run on any thread, so the lines are in a lock box.
      private let recorded = Locked<[String]>([])

      var lines: [String] { recorded.withLock { $0 } }

      func append(_ line: String) {
        recorded.withLock { $0.append(line) }
      }
    }
    // end-snippet

    // MARK: G1 order

    @Test func subscribersAreCalledInSubscriptionOrder() {
      // snippet: runtime-order
      let output = Output<String>()
      let transcript = Transcript()
      output.subscribe(transcript) { transcript, event in transcript.append("first: \(event)") }
      output.subscribe(transcript) { transcript, event in transcript.append("second: \(event)") }

      output.send("a")
      output.send("b")
      // transcript.lines == ["first: a", "second: a", "first: b", "second: b"]
      // end-snippet
      #expect(transcript.lines == ["first: a", "second: a", "first: b", "second: b"])
    }

    // MARK: G2 serialized

    // snippet: runtime-serialized-counter
    final class Counter: Sendable {
      // The handler runs on whichever thread delivers, so the numbers are in a lock box.
      private let numbers = Locked((received: 0, running: 0, overlaps: 0))

      var received: Int { numbers.withLock { $0.received } }
      var overlaps: Int { numbers.withLock { $0.overlaps } }

      func handlerBegan() {
        numbers.withLock { numbers in
          numbers.received += 1
          numbers.running += 1
          if numbers.running > 1 { numbers.overlaps += 1 }
        }
      }

      func handlerEnded() {
        numbers.withLock { $0.running -= 1 }
      }
    }
    // end-snippet

    @Test func concurrentSendsAreDeliveredOneAtATime() {
      // snippet: runtime-serialized
      let output = Output<Int>()
      let counter = Counter()
      output.subscribe(counter) { counter, _ in
        counter.handlerBegan()  // counts an overlap if another call of this handler is still running
        counter.handlerEnded()
      }

      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        for value in 0..<1_000 { output.send(value) }
      }
      // counter.received == 4_000, counter.overlaps == 0
      // end-snippet
      #expect(counter.received == 4_000)
      #expect(counter.overlaps == 0)
    }

    // MARK: G3 reentrant send

    @Test func aSendFromAHandlerIsQueued() {
      // snippet: runtime-reentrant
      let output = Output<String>()
      let transcript = Transcript()
      output.subscribe(transcript) { [weak output] transcript, event in
        transcript.append("first: \(event)")
        if event == "ping" {
          output?.send("pong")  // queued until "ping" has reached everyone
        }
      }
      output.subscribe(transcript) { transcript, event in transcript.append("second: \(event)") }

      output.send("ping")
      // transcript.lines == ["first: ping", "second: ping", "first: pong", "second: pong"]
      // end-snippet
      #expect(transcript.lines == ["first: ping", "second: ping", "first: pong", "second: pong"])
    }

    @Test func chainedSendsUseConstantStack() {
      // snippet: runtime-reentrant-chain
      let countdown = Output<Int>()
      let transcript = Transcript()
      countdown.subscribe(transcript) { [weak countdown] transcript, remaining in
        if remaining > 0 {
          countdown?.send(remaining - 1)  // 100 000 nested sends, one stack frame deep
        } else {
          transcript.append("liftoff")
        }
      }
      countdown.send(100_000)
      // transcript.lines == ["liftoff"]
      // end-snippet
      #expect(transcript.lines == ["liftoff"])
    }

    // MARK: G4 cancellation

    // snippet: runtime-cancel-onboarding
    @MainActor final class OnboardingTip {
      var shown: [String] = []
      var subscription: ResponderSubscription?
    }
    // end-snippet

    @Test @MainActor func cancellingInsideAHandlerStopsAtOnce() async throws {
      // snippet: runtime-cancel-inside
      let tips = Output<String>()
      let tip = OnboardingTip()
      tip.subscription = tips.subscribe(tip, on: .main) { tip, text in
        tip.shown.append(text)
        tip.subscription?.cancel()  // show the first tip only
      }

      tips.send("Swipe to archive")
      tips.send("Long-press to pin")
      // tip.shown == ["Swipe to archive"]
      // end-snippet
      try await tips.waitUntilDelivered()
      #expect(tip.shown == ["Swipe to archive"])
      #expect(tips.subscriberCount == 0)
    }

    @Test func cancelDropsWhatIsQueued() {
      // snippet: runtime-cancel-queued
      let output = Output<String>()
      let transcript = Transcript()
      let disk = DispatchQueue(label: "disk")
      let subscription = output.subscribe(transcript, on: .queue(disk)) { transcript, event in
        transcript.append(event)
      }

      disk.suspend()  // pause the queue so that the events wait in it
      output.send("draft 1")
      output.send("draft 2")
      subscription.cancel()
      disk.resume()
      // transcript.lines == []: events queued for a cancelled subscription are dropped
      // end-snippet
      disk.sync {}
      #expect(transcript.lines.isEmpty)
    }

    // MARK: G5 changes during delivery

    @Test func aSubscriberAddedDuringDeliveryStartsWithTheNextEvent() {
      // snippet: runtime-subscribe-during-delivery
      let output = Output<Int>()
      let transcript = Transcript()
      output.subscribe(transcript) { [weak output] transcript, event in
        transcript.append("first: \(event)")
        if event == 1 {
          output?.subscribe(transcript) { transcript, event in transcript.append("late: \(event)") }
        }
      }

      output.send(1)
      output.send(2)
      // transcript.lines == ["first: 1", "first: 2", "late: 2"]
      // end-snippet
      #expect(transcript.lines == ["first: 1", "first: 2", "late: 2"])
    }

    // MARK: G6 weak responders

    // snippet: runtime-weak-screen
    @MainActor final class DetailScreen {
      var titles: [String] = []
    }
    // end-snippet

    @Test @MainActor func aResponderIsNeverKeptAliveAndNeverCalledAfterDeinit() async {
      // snippet: runtime-weak
      let titles = Output<String>()
      var screen: DetailScreen? = DetailScreen()
      titles.subscribe(screen!, on: .main) { screen, title in screen.titles.append(title) }

      screen = nil  // the subscription does not keep the screen alive: it deinitialises here
      titles.send("Inbox")  // never reaches the screen; the output removes its subscription
      // titles.subscriberCount == 0
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(titles.subscriberCount == 0)
    }

    // MARK: G7, G8 threads and locks

    @Test func everyCallIsSafeFromAnyThreadAndFromInsideAHandler() {
      // snippet: runtime-threads
      let output = Output<Int>()
      let counter = Counter()
      output.subscribe(counter) { [weak output] counter, _ in
        counter.handlerBegan()
        _ = output?.subscriberCount  // a handler may call anything, even this output
        counter.handlerEnded()
      }

      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for value in 0..<500 {
          let subscription = output.subscribe { _ in }
          output.send(thread * 1_000 + value)
          subscription.cancel()
        }
      }
      // counter.received == 2_000, output.subscriberCount == 1
      // end-snippet
      #expect(counter.received == 2_000)
      #expect(output.subscriberCount == 1)
    }

    // MARK: G11 delivery contexts

    @Test func aQueueContextKeepsOrderEvenOnAConcurrentQueue() {
      // snippet: runtime-queue-context
      let output = Output<Int>()
      let transcript = Transcript()
      let workers = DispatchQueue(label: "workers", attributes: .concurrent)
      output.subscribe(transcript, on: .queue(workers)) { transcript, value in
        transcript.append("\(value)")
      }

      for value in 1...5 { output.send(value) }
      workers.sync(flags: .barrier) {}  // wait until the queue has run what it was given
      // transcript.lines == ["1", "2", "3", "4", "5"]: in order, one at a time
      // end-snippet
      #expect(transcript.lines == ["1", "2", "3", "4", "5"])
    }

    // snippet: runtime-main-context-label
    @MainActor final class StatusLabel {
      var text = ""
    }
    // end-snippet

    @Test @MainActor func theMainContextRunsHandlersOnTheMainActor() async {
      // snippet: runtime-main-context
      let progress = Output<Int>()
      let label = StatusLabel()
      progress.subscribe(label, on: .main) { label, percent in
        label.text = "\(percent)%"  // on the main actor: no assumeIsolated, no DispatchQueue.main.async
      }

      DispatchQueue.global().async {
        progress.send(42)  // from a background thread: queued on the main queue
      }
      // end-snippet
      await Documentation.waitUntil { label.text == "42%" }
      #expect(label.text == "42%")
    }

    enum CartEvent: Sendable {
      case added(String)
      case cleared
    }

    // snippet: runtime-actor-store
    actor CartStore {
      private(set) var items: [String] = []

      func apply(_ event: CartEvent) {
        switch event {
        case .added(let item): items.append(item)
        case .cleared: items.removeAll()
        }
      }
    }
    // end-snippet

    @Test func anActorResponderHandlesEventsOnTheActorInOrder() async throws {
      let output = Output<CartEvent>()
      let store = CartStore()
      // snippet: runtime-actor-subscribe
      output.subscribe(store) { store, event in store.apply(event) }
      // end-snippet
      let transcript = Transcript()
      let disk = DispatchQueue(label: "disk")
      // snippet: runtime-wait-until-delivered
      let subscription = output.subscribe(transcript, on: .queue(disk)) { transcript, event in
        transcript.append("\(event)")
      }
      output.send(.added("tea"))
      output.send(.cleared)
      output.send(.added("milk"))

      try await output.waitUntilDelivered()
      // await store.items == ["milk"]: the actor has handled all three events
      // transcript.lines.count == 3: and so has the disk queue
      // end-snippet
      #expect(await store.items == ["milk"])
      #expect(transcript.lines.count == 3)
      subscription.cancel()
    }

    // MARK: G15 bounded delivery

    // snippet: runtime-bounded-types
    @MainActor final class ProgressScreen {
      private(set) var shown: [Double] = []
      private(set) var missed = 0

      func show(_ fraction: Double) { shown.append(fraction) }
      func skipped(_ count: Int) { missed += count }
    }

    final class LogSink: Sendable {
      private let written = Locked<[String]>([])
      var lines: [String] { written.withLock { $0 } }

      func write(_ line: String) { written.withLock { $0.append(line) } }
      func note(missed count: Int) { written.withLock { $0.append("(\(count) lines dropped)") } }
    }
    // end-snippet

    @Test @MainActor func aProgressScreenDrawsTheLatestValueAndALogSinkKeepsTheNewestThousand() async throws {
      let progress = Output<Double>()
      let log = Output<String>()
      let logQueue = DispatchQueue(label: "log")
      let screen = ProgressScreen()
      let sink = LogSink()
      // snippet: runtime-bounded
      // A screen draws the newest value; what the main actor had no time for is skipped.
      progress.subscribe(screen, on: .main(bufferingPolicy: .latest, onLag: { screen.skipped($0) })) {
        screen, fraction in screen.show(fraction)
      }

      // A log keeps the newest 1,000 lines that wait, and says where it lost some.
      let logging = log.subscribe(
        sink, on: .queue(logQueue, bufferingPolicy: .bufferingNewest(1_000), onLag: { sink.note(missed: $0) })
      ) { sink, line in sink.write(line) }
      // end-snippet
      logQueue.suspend()  // the log's queue is busy elsewhere while 1,500 lines arrive
      for index in 1...1_500 { log.send("line \(index)") }
      #expect(logging.waitingCount == 1_000)
      #expect(logging.droppedCount == 500)
      logQueue.resume()
      try await log.waitUntilDelivered()
      #expect(sink.lines.first == "(500 lines dropped)")
      #expect(sink.lines.dropFirst().first == "line 501")
      #expect(sink.lines.last == "line 1500")

      // The main queue is busy while another thread reports progress.
      let held = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      DispatchQueue.main.async {
        held.signal()
        release.wait()
      }
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
          held.wait()
          for step in 1...100 { progress.send(Double(step) / 100) }
          release.signal()
          done.resume()
        }.start()
      }
      try await progress.waitUntilDelivered()
      #expect(screen.shown == [1.0], "only the latest value is drawn")
      #expect(screen.missed == 99)
    }

    // MARK: Troubleshooting

    // snippet: runtime-troubleshooting-on-main
    @MainActor final class TitleLabel {
      var title = ""

      func bind(to output: Output<String>) {
        output.subscribe(self, on: .main) { label, title in label.title = title }
      }
    }
    // end-snippet

    @Test @MainActor func aMainActorTypeSubscribedOnMainIsUpdatedFromAnotherThread() async throws {
      let output = Output<String>()
      let label = TitleLabel()
      label.bind(to: output)
      await runOnThread { output.send("Inbox") }
      try await output.waitUntilDelivered()
      #expect(label.title == "Inbox")
    }

    // snippet: runtime-troubleshooting-banner
    @MainActor final class Banner: MainActorEventResponder {
      var text = ""

      func handle(event: String) {
        text = event
      }
    }
    // end-snippet

    @Test @MainActor func aMainActorEventResponderNeedsNoContext() async throws {
      let output = Output<String>()
      // snippet: runtime-troubleshooting-banner-subscribe
      let banner = Banner()
      output.subscribe(banner)  // on the main actor, as its protocol says
      // end-snippet
      await runOnThread { output.send("Saved") }
      try await output.waitUntilDelivered()
      #expect(banner.text == "Saved")
    }

    // MARK: Replay

    // snippet: runtime-replay-types
    enum SessionState: Sendable, Equatable {
      case signedOut
      case signedIn(userID: Int)
    }

    @MainActor final class AccountBadge {
      var states: [SessionState] = []
    }
    // end-snippet

    @Test @MainActor func aLateSubscriberFirstReceivesTheReplayWindow() async throws {
      // snippet: runtime-replay
      let session = Output<SessionState>(replay: 1)
      session.send(.signedOut)
      session.send(.signedIn(userID: 7))

      let badge = AccountBadge()
      session.subscribe(badge, on: .main) { badge, state in badge.states.append(state) }
      // badge.states == [.signedIn(userID: 7)]: the latest state, and only that

      session.send(.signedOut)
      // badge.states == [.signedIn(userID: 7), .signedOut]
      // end-snippet
      try await session.waitUntilDelivered()
      #expect(badge.states == [.signedIn(userID: 7), .signedOut])
    }

    // MARK: values

    @Test func valuesSubscribesWhenReadAndEndsWhenReleased() async {
      // snippet: runtime-values
      let downloads = Output<Int>()
      var received: [Int] = []
      do {
        let progress = downloads.values  // subscribed here, not when the loop starts
        downloads.send(10)
        downloads.send(100)
        for await percent in progress {
          received.append(percent)
          if percent == 100 { break }
        }
        // downloads.subscriberCount == 1: `progress` still holds the stream
      }
      // received == [10, 100], downloads.subscriberCount == 0: the stream is gone
      // end-snippet
      #expect(received == [10, 100])
      #expect(downloads.subscriberCount == 0)
    }

    @Test func breakingOutOfALoopOverValuesEndsTheSubscription() async {
      let downloads = Output<Int>()
      let sender = Task {
        while downloads.subscriberCount == 0 { await Task.yield() }
        downloads.send(1)
      }
      for await _ in downloads.values { break }
      await sender.value
      #expect(downloads.subscriberCount == 0)
    }

    // On the main actor, as the task: it cannot start, see the cancel and end the subscription before the count below.
    @Test @MainActor func valuesReadBeforeTheTaskSubscribesAtOnceAndEndsWhenTheTaskIsCancelled() async {
      let downloads = Output<Int>()
      // snippet: runtime-values-task
      let percents = downloads.values  // subscribed here: read it before the task, not inside it
      let task = Task {
        for await percent in percents {
          print("downloaded \(percent)%")
        }
      }
      // …
      task.cancel()  // ends the loop and the subscription
      // end-snippet
      #expect(downloads.subscriberCount == 1, "reading values did not subscribe before the task ran")
      await task.value
      #expect(downloads.subscriberCount == 0)
    }

    // MARK: Introspection

    @Test func debugDescriptionSaysWhereEachSubscriptionWasMade() {
      let output = Output<String>()
      let transcript = Transcript()
      output.subscribe(transcript) { transcript, event in transcript.append(event) }
      // snippet: runtime-debug-description
      let report = output.debugDescription
      // Output<String>: 1 subscriber
      //   #1 responder Transcript at Inbox/InboxScreen.swift:42 (immediate)
      // end-snippet
      #expect(report.hasPrefix("Output<String>: 1 subscriber\n  #1 responder Transcript at EventBusTests/"))
      #expect(report.hasSuffix("(immediate)"))
    }
  }
}
