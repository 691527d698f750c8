import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// `Output(replay: n)`: a late subscriber first receives the last n events, then the live ones, in order, with no gap
/// and no duplicate, even when sends race the subscribe.
@Suite struct ReplayTests {
  @Test func lateSubscriberGetsTheLastNEventsThenLiveOnes() {
    let output = Output<Int>(replay: 2)
    output.send(1)
    output.send(2)
    output.send(3)
    let recorder = Recorder<Int>()
    output.subscribe(recorder)
    #expect(recorder.events == [2, 3], "the replay is delivered before subscribe returns when nothing else runs")
    output.send(4)
    #expect(recorder.events == [2, 3, 4])
  }

  @Test func lateSubscriberGetsEveryEventWhenFewerThanNWereSent() {
    let output = Output<Int>(replay: 5)
    output.send(1)
    output.send(2)
    let log = Log<Int>()
    let token = output.subscribe { log.append($0) }
    output.send(3)
    #expect(log.elements == [1, 2, 3])
    withExtendedLifetime(token) {}
  }

  @Test(arguments: [0, -3])
  func outputWithoutReplayKeepsNoHistory(replay: Int) {
    let output = Output<Int>(replay: replay)
    #expect(output.replayCount == 0)
    output.send(1)
    let recorder = Recorder<Int>()
    output.subscribe(recorder)
    output.send(2)
    #expect(recorder.events == [2])
  }

  @Test func everyLateSubscriberGetsItsOwnReplayWhateverItsKind() {
    let output = Output<Int>(replay: 3)
    for value in 0..<10 { output.send(value) }
    let responder = Recorder<Int>()
    output.subscribe(responder)
    let tokenLog = Log<Int>()
    let token = output.subscribe { tokenLog.append($0) }
    let mappedLog = Log<Int>()
    let mapped = output.readOnly.map { $0 * 10 }.subscribe { mappedLog.append($0) }
    #expect(responder.events == [7, 8, 9])
    #expect(tokenLog.elements == [7, 8, 9])
    #expect(mappedLog.elements == [70, 80, 90])
    withExtendedLifetime((token, mapped)) {}
  }

  @Test func subscriberAddedDuringDeliveryGetsTheWindowThenTheNextEventsWithoutGapOrDuplicate() {
    // While 5 is being delivered the window is [3, 4, 5]; a subscriber added then gets it, then 6 (queued meanwhile).
    let output = Output<Int>(replay: 3)
    for value in 0..<5 { output.send(value) }
    let late = Recorder<Int>()
    let first = output.subscribe { event in
      if event == 5 {
        output.subscribe(late)
        #expect(late.events.isEmpty, "a replay ran inside another subscriber's handler")
        output.send(6)
      }
    }
    output.send(5)
    output.send(7)
    #expect(late.events == [3, 4, 5, 6, 7])
    withExtendedLifetime(first) {}
  }

  @Test func replayRunsOnTheSubscribersContext() {
    let key = DispatchSpecificKey<Bool>()
    let queue = DispatchQueue(label: "replay")
    queue.setSpecific(key: key, value: true)
    let output = Output<Int>(replay: 2)
    output.send(1)
    output.send(2)
    let onQueue = Log<Bool>()
    let received = Log<Int>()
    let token = output.subscribe(on: .queue(queue)) { event in
      onQueue.append(DispatchQueue.getSpecific(key: key) == true)
      received.append(event)
    }
    output.send(3)
    queue.sync {}
    #expect(received.elements == [1, 2, 3])
    #expect(onQueue.elements == [true, true, true])
    withExtendedLifetime(token) {}
  }

  /// One subscription made while events were being sent.
  private final class LateSubscription: Sendable {
    let received = Log<Int>()
    let token = Slot<EventSubscription>()
    /// Events whose delivery had begun before subscribe was called, and after it returned.
    let startedBefore = LockedState(0)
    let startedAfter = LockedState(0)
  }

  @Test func subscribersRacingSendsFromOtherThreadsGetNoGapAndNoDuplicate() async {
    // One thread sends 0, 1, 2, … while three threads subscribe at spread-out moments. Each subscription must
    // receive a run of consecutive numbers ending at the last one. Where the run starts is pinned by a counter of
    // deliveries begun, read just before subscribe and just after: at most one event can be between "appended to
    // the window" and "delivered to the first subscriber".
    let window = 4
    let output = Output<Int>(replay: window)
    let started = Counter()
    let first = output.subscribe { _ in started.increment() }
    let count = stress(4000)
    let subscribersPerThread = 40
    let subscriptions = (0..<3 * subscribersPerThread).map { _ in LateSubscription() }
    guard
      await runConcurrently(
        threads: 4,
        { thread in
          if thread == 0 {
            for value in 0..<count { output.send(value) }
            return
          }
          for index in 0..<subscribersPerThread {
            // Spread the subscriptions over the whole run of sends.
            let target = index * count / subscribersPerThread + thread * 7
            while started.current < min(target, count - 1) { sched_yield() }
            let late = subscriptions[(thread - 1) * subscribersPerThread + index]
            late.startedBefore.withLock { $0 = started.current }
            let token = output.subscribe { late.received.append($0) }
            late.startedAfter.withLock { $0 = started.current }
            late.token.put(token)
          }
        })
    else { return }
    var problems: [String] = []
    for (index, late) in subscriptions.enumerated() {
      let received = late.received.elements
      let before = late.startedBefore.withLock { $0 }
      let after = late.startedAfter.withLock { $0 }
      guard let firstReceived = received.first else {
        problems.append("subscription \(index) received nothing")
        continue
      }
      if received != Array(firstReceived..<count) {
        let gap = zip(received, received.dropFirst()).first { $1 != $0 + 1 }
        problems.append(
          "subscription \(index): not a run ending at \(count - 1); first break \(gap.map { "\($0) → \($1)" } ?? "at end")"
        )
      }
      if firstReceived < max(0, before - window) || firstReceived > max(0, after + 1 - window) {
        problems.append(
          "subscription \(index): replay began at \(firstReceived), expected within "
            + "\(max(0, before - window))...\(max(0, after + 1 - window))")
      }
      late.token.value?.cancel()
    }
    #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(5))")
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(first) {}
  }

  /// A subscriber found dead while it receives its replay window is removed before the delivery is let go: a
  /// subscription cancelled afterwards receives nothing sent after its cancel.
  @Test func aSubscriberFoundDeadDuringItsReplayIsRemovedBeforeTheNextSend() {
    final class Screen: Sendable {}
    let output = Output<Int>(replay: 1)
    output.send(1)
    let log = LockedState<[Int]>([])
    let subscription = output.subscribe { event in
      log.withLock { $0.append(event) }
      if event == 2 {
        // Subscribed from a handler and dead at once: its replay, handed over at the end of this round, finds it so.
        output.subscribe(Screen()) { _, _ in }
      }
    }
    output.send(2)
    subscription.cancel()
    output.send(3)
    #expect(log.withLock { $0 } == [1, 2])
  }
}
