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

  // The two orders of reading `values` and starting the task that loops over it. The test runs on the main actor and
  // so does the task, which therefore cannot start before the test suspends: the sends below happen before the task
  // runs, every time.

  @MainActor
  @Test func aStreamReadBeforeItsTaskReceivesTheEventsSentBeforeTheTaskRuns() async {
    let output = Output<Int>()
    let started = Counter()
    let events = output.values
    let task = Task { @MainActor in
      started.increment()
      var received: [Int] = []
      for await value in events {
        received.append(value)
        if value == 3 { break }
      }
      return received
    }
    output.send(1)
    output.send(2)
    #expect(started.current == 0, "the task ran before the sends")
    output.send(3)
    #expect(await task.value == [1, 2, 3])
  }

  @MainActor
  @Test func valuesReadInsideTheTaskMissesTheEventsSentBeforeTheTaskRuns() async {
    let output = Output<Int>()
    let task = Task { @MainActor in
      var received: [Int] = []
      for await value in output.values {
        received.append(value)
        if value == 3 { break }
      }
      return received
    }
    output.send(1)
    output.send(2)
    #expect(output.subscriberCount == 0, "the task ran before the sends")
    #expect(await suspendUntil { output.subscriberCount == 1 })
    output.send(3)
    #expect(await task.value == [3], "the events sent before the task read `values` reached no one")
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
    await expectNoLiveObjects(for: Event.self)
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

  @Test func valuesEndsWhenTheStreamIsReleased() async {
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
    await expectNoLiveObjects(for: Event.self)
  }
}
