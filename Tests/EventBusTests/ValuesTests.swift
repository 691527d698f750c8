import Testing

@testable import EventBus

/// `values`: the events as an `AsyncSequence`, with a buffering policy, ending when iteration ends.
@Suite struct ValuesTests {
  @Test func valuesYieldsEveryEventInOrder() async {
    let output = Output<Int>()
    let stream = output.values
    for value in 0..<100 { output.send(value) }
    var received: [Int] = []
    for await value in stream {
      received.append(value)
      if received.count == 100 { break }
    }
    #expect(received == Array(0..<100))
  }

  @Test func bufferingNewestDropsTheOldestEvents() async {
    let output = Output<Int>()
    let stream = output.values(bufferingPolicy: .bufferingNewest(2))
    for value in 1...5 { output.send(value) }
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    let second = await iterator.next()
    #expect([first, second] == [4, 5])
  }

  @Test func bufferingOldestDropsTheNewestEvents() async {
    let output = Output<Int>()
    let stream = output.values(bufferingPolicy: .bufferingOldest(2))
    for value in 1...5 { output.send(value) }
    output.send(6)
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    let second = await iterator.next()
    #expect([first, second] == [1, 2])
  }

  @Test func valuesEndsWhenTheIteratingTaskIsCancelled() async {
    struct Event: Sendable, Equatable {
      var value: Int
    }
    do {
      let output = Output<Event>()
      let received = Log<Int>()
      let stream = output.values
      #expect(output.subscriberCount == 1)
      let task = Task {
        for await event in stream { received.append(event.value) }
      }
      output.send(Event(value: 1))
      output.send(Event(value: 2))
      #expect(await suspendUntil { received.count == 2 })
      #expect(received.elements == [1, 2])
      task.cancel()
      await task.value
      #expect(output.subscriberCount == 0, "the subscription outlived the cancelled iteration")
    }
    expectNoLiveObjects(for: Event.self)
  }

  @Test func valuesEndsWhenTheLoopBreaks() async {
    let output = Output<Int>()
    let received = Log<Int>()
    let task = Task {
      for await value in output.values {
        received.append(value)
        break
      }
    }
    #expect(await suspendUntil { output.subscriberCount == 1 })
    output.send(1)
    output.send(2)
    await task.value
    #expect(received.elements == [1])
    #expect(await suspendUntil { output.subscriberCount == 0 }, "the subscription outlived the loop")
  }

  @Test func valuesEndsWhenTheStreamIsReleased() {
    struct Event: Sendable {}
    do {
      let output = Output<Event>()
      do {
        let stream = output.values
        _ = stream
        #expect(output.subscriberCount == 1)
      }
      #expect(output.subscriberCount == 0)
    }
    expectNoLiveObjects(for: Event.self)
  }
}
