import Foundation
import Testing

@testable import EventBus

/// `waitForEvents(count:timeout:)` takes any timeout: durations too long to count in nanoseconds wait without a limit,
/// zero and negative ones do not wait. None of them traps.
@Suite struct EventRecorderTimeoutTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(arguments: [
    Duration.seconds(Int64.max), Duration(secondsComponent: .max, attosecondsComponent: .max), .seconds(1e12),
  ])
  func aTimeoutBeyondAnyClockWaitsUntilTheEventsArrive(timeout: Duration) async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { output.send(1) }
    #expect(await recorder.waitForEvents(count: 1, timeout: timeout))
    #expect(recorder.events == [1])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func anUnlimitedWaitEndsWhenTheTaskIsCancelled() async {
    let recorder = EventRecorder<Int>()
    let waiting = Task { await recorder.waitForEvents(count: 1, timeout: .seconds(Int64.max)) }
    try? await Task.sleep(nanoseconds: 20_000_000)
    waiting.cancel()
    #expect(await waiting.value == false)

    let alreadyCancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await recorder.waitForEvents(count: 1, timeout: .seconds(Int64.max))
    }
    #expect(await alreadyCancelled.value == false)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(arguments: [
    Duration.zero, .seconds(-1), .nanoseconds(-1), Duration(secondsComponent: .min, attosecondsComponent: 0),
  ])
  func aTimeoutOfZeroOrLessDoesNotWait(timeout: Duration) async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    #expect(await recorder.waitForEvents(count: 1, timeout: timeout) == false)
    output.send(1)
    #expect(await recorder.waitForEvents(count: 1, timeout: timeout))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func durationTimeoutsConvertToNanosecondsWithoutTrapping() {
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: Duration.seconds(2)) == 2_000_000_000)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: Duration.milliseconds(1500)) == 1_500_000_000)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: Duration(secondsComponent: 0, attosecondsComponent: 1)) == 1)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: Duration.zero) == 0)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: Duration.seconds(-3)) == 0)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: Duration.seconds(18_446_744_074)) == nil)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: Duration.seconds(18_000_000_000)) == 18_000_000_000_000_000_000)
  }

  @Test func secondsConvertToNanosecondsWithoutTrapping() {
    // What the deprecated `Double` form of the wait counts with.
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: 2) == 2_000_000_000)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: 1e-10) == 1)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: 0) == 0)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: -3) == 0)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: .nan) == 0)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: .infinity) == nil)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: 1.8446744073709552e10) == nil)
    #expect(EventRecorder<Int>.nanoseconds(forTimeout: 1.8e10) == 18_000_000_000_000_000_000)
  }
}
