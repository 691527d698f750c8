import Broadcasters
import Dispatch
import EventBusTestSupport
import EventBusTesting
import Testing

/// `waitUntilDelivered(timeout:)`: a delivery that does not finish fails the test instead of hanging it.
@Suite struct DeliveryTimeoutTests {
  enum Quote: Sendable, Equatable { case price(Int) }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aDeliveryBlockedOnItsQueueFailsTheWaitAtItsTimeout() async {
    let output = Output<Quote>()
    let queue = DispatchQueue(label: "delivery-timeout")
    let gate = DispatchSemaphore(value: 0)
    let token = output.subscribe(on: .queue(queue)) { _ in }
    queue.async { gate.wait() }
    output.send(.price(1))
    await withKnownIssue {
      #expect(await output.waitUntilDelivered(timeout: .milliseconds(20)) == false)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue == "Output<DeliveryTimeoutTests.Quote>: not every subscriber had handled what was sent within "
          + "20 ms (1 subscriber)"
      }
    }
    gate.signal()
    #expect(await output.waitUntilDelivered(timeout: .seconds(60)))
    token.cancel()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aRecorderWaitThatTimesOutListsWhatArrived() async {
    let output = Output<Quote>()
    let queue = DispatchQueue(label: "delivery-timeout-recorder")
    let recorder = EventRecorder(output, on: .queue(queue))
    output.send(.price(1))
    #expect(await recorder.waitUntilDelivered(timeout: .seconds(60)))
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }
    output.send(.price(2))
    await withKnownIssue {
      #expect(await recorder.waitUntilDelivered(timeout: .milliseconds(20)) == false)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue == "EventRecorder: the streams it records had not delivered within 20 ms; received 1: [price(1)]"
      }
    }
    gate.signal()
    #expect(await recorder.waitUntilDelivered(timeout: .seconds(60)))
    #expect(recorder.events == [.price(1), .price(2)])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aCancelledWaitEndsAtOnceAndRecordsNothing() async {
    let output = Output<Quote>()
    let queue = DispatchQueue(label: "delivery-timeout-cancel")
    let gate = DispatchSemaphore(value: 0)
    let token = output.subscribe(on: .queue(queue)) { _ in }
    queue.async { gate.wait() }
    output.send(.price(1))
    let wait = Task { await output.waitUntilDelivered(timeout: .seconds(600)) }
    wait.cancel()
    #expect(await wait.value == false)  // any issue recorded would fail this test
    gate.signal()
    token.cancel()
  }
}
