import EventBusTestSupport
import Testing

@testable import EventBus

/// G3: a send from inside a handler is queued and delivered after the current event has reached every subscriber,
/// without recursion.
@Suite struct OutputReentrancyTests {
  private struct Call: Sendable, Equatable, CustomStringConvertible {
    var subscriber: Int
    var event: Int
    var description: String { "s\(subscriber):\(event)" }
  }

  @Test func sendFromAHandlerIsDeliveredAfterTheCurrentEventReachedEverySubscriber() {
    let output = Output<Int>()
    let calls = Log<Call>()
    var tokens: [EventSubscription] = []
    for subscriber in 0..<3 {
      output.subscribe { event in
        calls.append(Call(subscriber: subscriber, event: event))
        if subscriber == 0, event == 0 { output.send(1) }
      }.store(in: &tokens)
    }
    output.send(0)
    let expected = [0, 1].flatMap { event in (0..<3).map { Call(subscriber: $0, event: event) } }
    #expect(calls.elements == expected)
  }

  @Test func sendFromAHandlerReturnsBeforeItsEventIsDelivered() {
    let output = Output<Int>()
    let log = Log<Int>()
    let seenWhenSendReturned = Log<[Int]>()
    let token = output.subscribe { event in
      log.append(event)
      if event == 0 {
        output.send(1)
        seenWhenSendReturned.append(log.elements)
      }
    }
    output.send(0)
    #expect(seenWhenSendReturned.elements == [[0]])
    #expect(log.elements == [0, 1])
    token.cancel()
  }

  @Test func nestedSendsAreDeliveredFirstInFirstOutToEverySubscriber() {
    // Subscriber 0 sends 1 and 2 while handling 0; subscriber 1 sends 3 while handling 1. Queued in that order, they
    // reach everyone as [0, 1, 2, 3].
    let output = Output<Int>()
    let recorders = (0..<4).map { _ in Recorder<Int>() }
    for (index, recorder) in recorders.enumerated() {
      output.subscribe(recorder) { recorder, event in
        recorder.handle(event: event)
        switch (index, event) {
        case (0, 0):
          output.send(1)
          output.send(2)
        case (1, 1):
          output.send(3)
        default:
          break
        }
      }
    }
    output.send(0)
    for (index, recorder) in recorders.enumerated() {
      #expect(recorder.events == [0, 1, 2, 3], "subscriber \(index)")
    }
  }

  @Test func chainOf100000ReentrantSendsRunsWithConstantStackDepth() async {
    // Each event's handler sends the next one. On a thread with a 256 KiB stack, recursion would overflow long before
    // the end; the depth check reports it earlier, with a message, instead of a crash.
    let output = Output<Int>()
    let last = 100_000
    let received = Counter()
    let depthGrowth = Log<String>()
    let baseline = LockedState(0)
    let token = output.subscribe { value in
      received.increment()
      // Measured here, not inside a lock's closure, which would add frames of its own. Event 0 is delivered by
      // `send` itself, every later one by the loop that drains the queue, a few frames apart; from event 1 on, the
      // depth must not change.
      let depth = value < 64 || value % 1000 == 0 ? currentStackDepth() : 0
      if value == 1 {
        baseline.withLock { $0 = depth }
      } else if value > 1, value < 64 || value % 1000 == 0 {
        let base = baseline.withLock { $0 }
        if depth != base {
          depthGrowth.append("stack depth \(depth) frames at event \(value), \(base) at event 1")
          return  // stop the chain before the stack overflows
        }
      }
      if value < last { output.send(value + 1) }
    }
    await runOnThread(stackSize: 256 << 10) { output.send(0) }
    #expect(depthGrowth.elements.isEmpty, "G3: reentrant send recursed: \(depthGrowth.elements)")
    #expect(received.current == last + 1)
    token.cancel()
  }

  @Test func handlersOfTwoOutputsSendingToEachOtherTakeTurns() async {
    // Output a's handler sends to b, and b's to a. Each output queues what arrives during its own delivery.
    let a = Output<Int>()
    let b = Output<Int>()
    let log = Log<String>()
    let tokenA = a.subscribe { value in
      log.append("a\(value)")
      if value < 6 { b.send(value + 1) }
    }
    let tokenB = b.subscribe { value in
      log.append("b\(value)")
      if value < 6 { a.send(value + 1) }
    }
    let finished = await runOnThread(timeout: 30) { a.send(0) }
    #expect(finished)
    #expect(log.elements == ["a0", "b1", "a2", "b3", "a4", "b5", "a6"])
    withExtendedLifetime((tokenA, tokenB)) {}
  }
}
