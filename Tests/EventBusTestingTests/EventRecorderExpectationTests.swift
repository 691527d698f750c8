import Broadcasters
import Dispatch
import EventBusTestSupport
import EventBusTesting
import Foundation
import Testing

/// The recorder's waits for a test: they end, and a failure says what arrived.
@Suite struct EventRecorderExpectationTests {
  enum ScreenEvent: Sendable, Equatable {
    case loading(Bool)
    case items([String])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aWaitForMoreEventsThanCameFailsSayingWhichCame() async {
    let output = Output<ScreenEvent>()
    let recorder = EventRecorder(output)
    output.send(.loading(true))
    await withKnownIssue {
      #expect(await recorder.expectEvents(count: 2, timeout: .milliseconds(20)) == false)
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "EventRecorder: received 1 of 2 events within 20 ms: [loading(true)]" }
        && issue.sourceLocation?.fileID == "EventBusTestingTests/EventRecorderExpectationTests.swift"
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aRecorderOnABoundedContextCountsWhatItsPolicyDroppedAndAFailedWaitSaysSo() async throws {
    let output = Output<ScreenEvent>()
    let queue = DispatchQueue(label: "recorded")
    queue.suspend()
    let recorder = EventRecorder(output, on: .queue(queue, bufferingPolicy: .latest))
    output.send(.loading(true))
    output.send(.items(["a"]))
    output.send(.loading(false))
    queue.resume()
    try await recorder.waitUntilDelivered()
    #expect(recorder.events == [.loading(false)])
    #expect(recorder.droppedCount == 2)
    #expect(recorder.count + recorder.droppedCount == 3, "every event sent is recorded or counted as dropped")
    await withKnownIssue {
      #expect(await recorder.expectEvents(count: 3, timeout: .milliseconds(20)) == false)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue
          == "EventRecorder: received 1 of 3 events within 20 ms, and 2 dropped by a buffering policy: [loading(false)]"
      }
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aWaitForEventsThatComeLaterReturnsWhenTheyAreThere() async {
    let output = Output<ScreenEvent>()
    let recorder = EventRecorder(output)
    let sender = Task {
      output.send(.loading(true))
      output.send(.loading(false))
    }
    #expect(await recorder.expectEvents(count: 2, timeout: .seconds(60)))
    #expect(recorder.events == [.loading(true), .loading(false)])
    await sender.value
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theFirstMatchingEventIsReturnedWhetherItIsAlreadyThereOrComesLater() async {
    let output = Output<ScreenEvent>()
    let recorder = EventRecorder(output)
    output.send(.loading(true))
    output.send(.items(["Tea"]))
    output.send(.items(["Coffee"]))
    let first = await recorder.expectEvent { if case .items = $0 { true } else { false } }
    #expect(first == .items(["Tea"]))

    let sender = Task {
      output.send(.loading(true))
      output.send(.loading(false))
    }
    let later = await recorder.expectEvent(timeout: .seconds(60)) { $0 == .loading(false) }
    #expect(later == .loading(false))
    await sender.value
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aMatchThatNeverComesFailsListingWhatCame() async {
    let output = Output<ScreenEvent>()
    let recorder = EventRecorder(output)
    output.send(.loading(true))
    output.send(.loading(false))
    #expect(await recorder.waitForEvent(timeout: .milliseconds(10)) { $0 == .items([]) } == nil)
    await withKnownIssue {
      #expect(await recorder.expectEvent(timeout: .milliseconds(20)) { $0 == .items([]) } == nil)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue == "EventRecorder: no event matched within 20 ms; received 2: [loading(true), loading(false)]"
      }
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func noEventsOnTheClockPassesBeforeATimersDeadlineAndFailsNamingTheTickAfterIt() async {
    let clock = ManualClock()
    let ticks = Broadcaster(source: TimerSource(every: .seconds(10), clock: clock))
    let output = Output<String>()
    let token = ticks.subscribe { _ in output.send("tick") }
    let recorder = EventRecorder(output)
    await clock.waitUntil(sleeperCount: 1)

    #expect(await recorder.expectNoEvents(within: .seconds(9), on: clock))
    #expect(clock.now.offset == .seconds(9))
    await withKnownIssue {
      #expect(await recorder.expectNoEvents(within: .seconds(1), on: clock) == false)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue == "EventRecorder: expected no event within 1 s of the clock's time; received 1: [tick]"
      }
    }
    token.cancel()
    await clock.waitUntil(sleeperCount: 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func noEventsInRealTimeFailsOnAnEventSentDuringTheWindow() async {
    let output = Output<String>()
    let recorder = EventRecorder(output)
    output.send("before")  // already there: not in the window
    #expect(await recorder.expectNoEvents(within: .milliseconds(10)))
    let sender = Task { output.send("during") }
    await withKnownIssue {
      #expect(await recorder.expectNoEvents(within: .seconds(60)) == false)
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "EventRecorder: expected no event within 60 s; received 1: [during]" }
    }
    await sender.value
  }
}
