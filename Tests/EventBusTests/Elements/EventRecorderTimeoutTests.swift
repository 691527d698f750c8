import Foundation
import Testing

@testable import EventBus

/// `waitForEvents(count:timeout:)` takes any timeout: infinity and huge values wait without a limit, zero, negative
/// values and NaN do not wait. None of them traps.
@Suite struct EventRecorderTimeoutTests {
  @Test(arguments: [Double.infinity, .greatestFiniteMagnitude, 1e12])
  func aTimeoutBeyondAnyClockWaitsUntilTheEventsArrive(timeout: Double) async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { output.send(1) }
    #expect(await recorder.waitForEvents(count: 1, timeout: timeout))
    #expect(recorder.events == [1])
  }

  @Test func anInfiniteWaitEndsWhenTheTaskIsCancelled() async {
    let recorder = EventRecorder<Int>()
    let waiting = Task { await recorder.waitForEvents(count: 1, timeout: .infinity) }
    try? await Task.sleep(nanoseconds: 20_000_000)
    waiting.cancel()
    #expect(await waiting.value == false)

    let alreadyCancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await recorder.waitForEvents(count: 1, timeout: .infinity)
    }
    #expect(await alreadyCancelled.value == false)
  }

  @Test(arguments: [0, -1, -Double.infinity, .nan])
  func aTimeoutOfZeroOrLessOrNaNDoesNotWait(timeout: Double) async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    #expect(await recorder.waitForEvents(count: 1, timeout: timeout) == false)
    output.send(1)
    #expect(await recorder.waitForEvents(count: 1, timeout: timeout))
  }

  @Test func timeoutsConvertToNanosecondsWithoutTrapping() {
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
