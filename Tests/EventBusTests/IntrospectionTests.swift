import Dispatch
import EventBusTestSupport
import Testing

@testable import EventBus

/// `subscriberCount`, `debugDescription` and the trace hook.
@Suite struct IntrospectionTests {
  @Test func subscriberCountCountsOnlyLiveSubscribers() {
    let output = Output<Int>()
    #expect(output.subscriberCount == 0)
    let living = Recorder<Int>()
    output.subscribe(living)
    let token = output.subscribe { _ in }
    let cancelled = output.subscribe { _ in }
    cancelled.cancel()
    do {
      let dying = Recorder<Int>()
      output.subscribe(dying)
      #expect(output.subscriberCount == 3)
    }
    #expect(output.subscriberCount == 2, "a cancelled or deinitialised subscriber is still counted")
    token.cancel()
  }

  @Test func debugDescriptionListsLiveSubscriptionsWithWhereTheyWereMade() {
    let output = Output<Int>(replay: 2)
    let responder = Recorder<Int>()
    let queue = DispatchQueue(label: "described")
    let responderLine = #line + 1
    output.subscribe(responder, on: .queue(queue)) { _, _ in }
    let tokenLine = #line + 1
    let token = output.subscribe { _ in }
    let cancelled = output.subscribe { _ in }
    cancelled.cancel()
    do {
      let dying = Recorder<Int>()
      output.subscribe(dying)
    }
    let lines = output.debugDescription.components(separatedBy: "\n")
    #expect(
      lines == [
        "Output<Int>: 2 subscribers, replay 2",
        "  #1 responder Recorder<Int> at EventBusTests/IntrospectionTests.swift:\(responderLine) (queue described)",
        "  #2 handler at EventBusTests/IntrospectionTests.swift:\(tokenLine) (immediate)",
      ])
    token.cancel()
  }

  @Test func debugDescriptionOfAnOutputWithOneSubscriberUsesTheSingular() {
    let output = Output<Int>()
    let responder = Recorder<Int>()
    output.subscribe(responder)
    #expect(output.debugDescription.hasPrefix("Output<Int>: 1 subscriber\n"))
  }

  @Test func traceIsCalledForEverySendIncludingQueuedOnes() {
    let output = Output<Int>()
    #expect(output.trace == nil)
    let traced = Log<Int>()
    output.trace = { traced.append($0) }
    let token = output.subscribe { event in
      if event == 0 {
        output.send(1)
        output.send(2)
      }
    }
    output.send(0)
    #expect(traced.elements == [0, 1, 2])
    output.trace = nil
    output.send(3)
    #expect(traced.elements == [0, 1, 2])
    token.cancel()
  }

  @Test func traceIsCalledForEverySendFromEveryThread() async {
    let output = Output<Int>()
    let traced = Counter()
    output.trace = { _ in traced.increment() }
    let delivered = Counter()
    let token = output.subscribe { _ in delivered.increment() }
    let perThread = stress(5000)
    guard await runConcurrently(threads: 4, { _ in for value in 0..<perThread { output.send(value) } }) else { return }
    #expect(traced.current == 4 * perThread)
    #expect(delivered.current == 4 * perThread)
    token.cancel()
  }

  @Test func traceIsCalledEvenWithoutSubscribers() {
    let output = Output<Int>()
    let traced = Log<Int>()
    output.trace = { traced.append($0) }
    output.send(7)
    #expect(traced.elements == [7])
  }
}
