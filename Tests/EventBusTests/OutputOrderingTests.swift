import EventBusTestSupport
import Testing

@testable import EventBus

/// G1: subscribers are called in the order they subscribed, and every subscriber sees the same order of events.
@Suite struct OutputOrderingTests {
  @Test func deliversToResponderAndTokenInSendOrder() {
    let output = Output<Int>()
    let recorder = Recorder<Int>()
    output.subscribe(recorder)
    let log = Log<Int>()
    let token = output.subscribe { log.append($0) }
    output.send(1)
    output.send(2)
    #expect(recorder.events == [1, 2])
    #expect(log.elements == [1, 2])
    #expect(output.subscriberCount == 2)
    token.cancel()
    output.send(3)
    #expect(log.elements == [1, 2])
    #expect(recorder.events == [1, 2, 3])
  }

  @Test func subscribersAreCalledInTheOrderTheySubscribed() {
    let output = Output<Int>()
    let calls = Log<String>()
    let first = Recorder<Int>()
    output.subscribe(first) { _, _ in calls.append("first") }
    let second = output.subscribe { _ in calls.append("second") }
    let third = Recorder<Int>()
    output.subscribe(third) { _, _ in calls.append("third") }
    let fourth = output.subscribe { _ in calls.append("fourth") }
    output.send(0)
    #expect(calls.elements == ["first", "second", "third", "fourth"])
    withExtendedLifetime((first, second, third, fourth)) {}
  }

  @Test func orderOfTheRemainingSubscribersSurvivesCancellationsAndCompaction() {
    // Removing more than half of 100 subscribers makes the output compact its storage; the survivors must keep their
    // relative order, and later subscribers come after them.
    let output = Output<Int>()
    let calls = Log<Int>()
    var tokens: [EventSubscription] = []
    for index in 0..<100 {
      tokens.append(output.subscribe { _ in calls.append(index) })
    }
    for index in stride(from: 0, to: 100, by: 3) {
      tokens[index].cancel()
    }
    for index in stride(from: 1, to: 100, by: 3) {
      tokens[index].cancel()
    }
    for index in 100..<103 {
      tokens.append(output.subscribe { _ in calls.append(index) })
    }
    output.send(0)
    let expected = Array(stride(from: 2, to: 100, by: 3)) + [100, 101, 102]
    #expect(calls.elements == expected)
    #expect(output.subscriberCount == expected.count)
    withExtendedLifetime(tokens) {}
  }

  @Test func everySubscriberSeesEveryEventInSendOrder() {
    let output = Output<Int>()
    let recorders = (0..<5).map { _ in Recorder<Int>() }
    for recorder in recorders {
      output.subscribe(recorder)
    }
    for value in 0..<1000 {
      output.send(value)
    }
    for recorder in recorders {
      #expect(recorder.events == Array(0..<1000))
    }
  }

  @Test func eventsSentConcurrentlyReachEverySubscriberInTheSameOrder() async {
    struct Tagged: Sendable, Equatable {
      var sender: Int
      var sequence: Int
    }
    let output = Output<Tagged>()
    let recorders = (0..<4).map { _ in Recorder<Tagged>() }
    for recorder in recorders {
      output.subscribe(recorder)
    }
    let perSender = stress(5000)
    guard
      await runConcurrently(
        threads: 4,
        { sender in
          for sequence in 0..<perSender { output.send(Tagged(sender: sender, sequence: sequence)) }
        })
    else { return }
    let reference = recorders[0].events
    #expect(reference.count == 4 * perSender)
    for (index, recorder) in recorders.enumerated().dropFirst() {
      let events = recorder.events
      let firstDifference = zip(events, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      #expect(
        events == reference,
        "subscriber \(index) saw another order: first difference at position \(firstDifference.map(String.init) ?? "end")"
      )
    }
  }
}
