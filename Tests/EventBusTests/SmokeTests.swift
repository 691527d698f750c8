import Foundation
import Testing

@testable import EventBus

@Suite struct SmokeTests {
  @Test func deliversToResponderAndTokenInOrder() {
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

  @Test func reentrantChainOf100000DoesNotOverflow() {
    let output = Output<Int>()
    let count = Log<Int>()
    let token = output.subscribe { value in
      if value < 100_000 { output.send(value + 1) } else { count.append(value) }
    }
    output.send(0)
    #expect(count.elements == [100_000])
    token.cancel()
  }

  @Test func replayThenLive() {
    let output = Output<Int>(replay: 2)
    output.send(1)
    output.send(2)
    output.send(3)
    let recorder = Recorder<Int>()
    output.subscribe(recorder)
    output.send(4)
    #expect(recorder.events == [2, 3, 4])
  }

  @Test func concurrentSendsAreSerializedAndComplete() {
    let output = Output<Int>()
    let inside = LockedState(0)
    let maxInside = LockedState(0)
    let total = LockedState(0)
    let token = output.subscribe { _ in
      let now = inside.withLock {
        $0 += 1
        return $0
      }
      maxInside.withLock { $0 = max($0, now) }
      total.withLock { $0 += 1 }
      inside.withLock { $0 -= 1 }
    }
    runConcurrently(threads: 4) { _ in
      for value in 0..<10_000 { output.send(value) }
    }
    #expect(total.withLock { $0 } == 40_000)
    #expect(maxInside.withLock { $0 } == 1)
    token.cancel()
  }

  @Test func responderDeinitEndsSubscriptionAndFreesEntries() {
    struct Probe: Sendable {}
    let output = Output<Probe>()
    do {
      let recorder = Recorder<Probe>()
      output.subscribe(recorder)
      output.send(Probe())
      #expect(recorder.events.count == 1)
    }
    #expect(output.subscriberCount == 0)
    #expect(LiveObjects.count("Output.Entry", for: Probe.self) == 0)
  }

  @Test func mapFilterRemoveDuplicates() {
    let output = Output<Int>()
    let log = Log<String>()
    let token = output.filter { $0 >= 0 }.map { "\($0 / 10)" }.removeDuplicates().subscribe { log.append($0) }
    for value in [1, 2, -5, 11, 12, 3] { output.send(value) }
    #expect(log.elements == ["0", "1", "0"])
    token.cancel()
  }

  @Test func valuesEndsWhenTheIteratingTaskIsCancelled() async {
    let output = Output<Int>()
    let received = Log<Int>()
    let stream = output.values
    #expect(output.subscriberCount == 1)
    let task = Task {
      for await value in stream { received.append(value) }
    }
    output.send(1)
    output.send(2)
    for _ in 0..<2000 where received.count < 2 { try? await Task.sleep(nanoseconds: 1_000_000) }
    #expect(received.elements == [1, 2])
    task.cancel()
    await task.value
    #expect(output.subscriberCount == 0)
  }

  @Test func valuesEndsWhenTheStreamIsReleased() {
    let output = Output<Int>()
    do {
      let stream = output.values
      _ = stream
      #expect(output.subscriberCount == 1)
    }
    #expect(output.subscriberCount == 0)
  }

  @Test func queueDeliveryKeepsOrderAndDropsAfterCancel() {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "test", attributes: .concurrent)
    let recorder = Recorder<Int>()
    let handle = output.subscribe(recorder, on: .queue(queue)) { recorder, value in recorder.handle(event: value) }
    for value in 0..<1000 { output.send(value) }
    queue.sync(flags: .barrier) {}
    let deadline = Date().addingTimeInterval(10)
    while recorder.events.count < 1000 && Date() < deadline { usleep(1000) }
    #expect(recorder.events == Array(0..<1000))
    handle.cancel()
    output.send(5000)
    usleep(10000)
    #expect(recorder.events.count == 1000)
  }

  @Test func mainActorDelivery() async {
    @MainActor final class Screen: MainActorEventResponder {
      var events: [Int] = []
      func handle(event: Int) { events.append(event) }
    }
    let output = Output<Int>()
    let screen = await MainActor.run { Screen() }
    output.subscribe(screen)
    output.send(1)
    output.send(2)
    for _ in 0..<1000 {
      if await screen.events.count == 2 { break }
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(await screen.events == [1, 2])
  }

  @Test func debugDescriptionListsLocations() {
    let output = Output<Int>()
    let recorder = Recorder<Int>()
    output.subscribe(recorder)
    let description = output.debugDescription
    #expect(description.contains("SmokeTests.swift:"))
    #expect(description.contains("1 subscriber"))
  }
}
