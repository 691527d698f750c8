import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G5: a subscriber added during a delivery misses that event and gets the next; one cancelled during a delivery is
/// skipped from then on; nobody else is skipped.
@Suite struct OutputMembershipTests {
  @Test func subscriberAddedDuringDeliveryMissesThatEventAndGetsTheNext() {
    let output = Output<Int>()
    let late = Log<Int>()
    let lateToken = Slot<EventSubscription>()
    let lateResponder = Recorder<Int>()
    let first = output.subscribe { event in
      if event == 0 {
        lateToken.put(output.subscribe { late.append($0) })
        output.subscribe(lateResponder)
      }
    }
    let after = Recorder<Int>()
    output.subscribe(after)
    output.send(0)
    output.send(1)
    #expect(late.elements == [1])
    #expect(lateResponder.events == [1])
    #expect(after.events == [0, 1], "a subscriber already there was skipped")
    withExtendedLifetime(first) {}
  }

  @Test func subscriberAddedDuringDeliveryGetsEventsQueuedDuringThatDelivery() {
    // The new subscriber is added, then an event is sent from the same handler: that queued event is "the next".
    let output = Output<Int>()
    let late = Recorder<Int>()
    let first = output.subscribe { event in
      if event == 0 {
        output.subscribe(late)
        output.send(1)
      }
    }
    output.send(0)
    #expect(late.events == [1])
    withExtendedLifetime(first) {}
  }

  @Test func cancelDuringDeliverySkipsOnlyTheCancelledSubscriber() {
    let output = Output<Int>()
    let logs = (0..<5).map { _ in Log<Int>() }
    let tokens = LockedState<[EventSubscription]>([])
    for index in 0..<5 {
      let token = output.subscribe { event in
        logs[index].append(event)
        if index == 1, event == 0 { tokens.withLock { $0[3] }.cancel() }
      }
      tokens.withLock { $0.append(token) }
    }
    output.send(0)
    output.send(1)
    #expect(logs.map(\.elements) == [[0, 1], [0, 1], [0, 1], [], [0, 1]])
  }

  @Test func subscriberCancelledEarlierInTheRoundIsNotCalledAgain() {
    // A subscriber that already got the event and is then cancelled by a later one gets nothing further.
    let output = Output<Int>()
    let early = Log<Int>()
    let earlyToken = Slot<EventSubscription>()
    earlyToken.put(output.subscribe { early.append($0) })
    let canceller = output.subscribe { event in
      if event == 0 {
        earlyToken.value?.cancel()
        output.send(1)
      }
    }
    output.send(0)
    output.send(2)
    #expect(early.elements == [0])
    withExtendedLifetime(canceller) {}
  }

  @Test func responderReleasedDuringDeliveryIsSkipped() {
    // The first subscriber drops the last strong reference to a responder that comes later in the round.
    let output = Output<Int>()
    let box = Slot<Recorder<Int>>(Recorder<Int>())
    let reached = Log<Int>()
    let dropper = output.subscribe { event in
      if event == 0 { _ = box.take() }
    }
    output.subscribe(box.value!) { _, event in reached.append(event) }
    let last = Recorder<Int>()
    output.subscribe(last)
    output.send(0)
    output.send(1)
    #expect(reached.elements.isEmpty)
    #expect(last.events == [0, 1])
    #expect(output.subscriberCount == 2)
    withExtendedLifetime(dropper) {}
  }

  @Test func subscriberAddedFromAnotherThreadDuringDeliveryMissesThatEventAndGetsTheNext() async {
    let output = Output<Int>()
    let inHandler = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let first = output.subscribe { event in
      if event == 0 {
        inHandler.signal()
        _ = release.wait(timeout: .now() + 30)
      }
    }
    let late = Recorder<Int>()
    let finished = await runConcurrently(threads: 2) { thread in
      if thread == 0 {
        output.send(0)
      } else {
        _ = inHandler.wait(timeout: .now() + 30)
        output.subscribe(late)
        release.signal()
      }
    }
    #expect(finished)
    output.send(1)
    #expect(late.events == [1])
    withExtendedLifetime(first) {}
  }
}
