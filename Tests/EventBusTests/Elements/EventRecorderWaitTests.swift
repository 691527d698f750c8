import Dispatch
import EventBusTestSupport
import Testing

@testable import EventBus

/// `EventRecorder.waitUntilDelivered()` waits for the outputs of every stream the recorder records, in every context.
@Suite struct EventRecorderWaitTests {
  @Test func theRecorderHasEverythingSentBeforeTheWaitOnAQueueAndTheMainActor() async throws {
    let numbers = Output<Int>()
    let words = Output<String>()
    let recorder = EventRecorder<String>()
    recorder.record(from: numbers.map { "\($0)" }, on: .queue(DispatchQueue(label: "numbers")))
    recorder.record(from: words.readOnly, on: .main)
    let count = stress(500)
    await runOnThread {
      for number in 1...count {
        numbers.send(number)
        words.send("w\(number)")
      }
    }
    try await recorder.waitUntilDelivered()
    let events = recorder.events
    #expect(events.filter { !$0.hasPrefix("w") } == (1...count).map { "\($0)" })
    #expect(events.filter { $0.hasPrefix("w") } == (1...count).map { "w\($0)" })
  }

  @Test func aRecorderOfAnOutputWithAnActorResponderWaitsForTheActorToo() async throws {
    actor Total {
      private(set) var value = 0
      func add(_ number: Int) async {
        await Task.yield()
        value += number
      }
    }
    let output = Output<Int>()
    let total = Total()
    let recorder = EventRecorder(output)
    output.subscribe(total) { total, number in await total.add(number) }
    for number in 1...100 { output.send(number) }
    try await recorder.waitUntilDelivered()
    #expect(recorder.count == 100)
    #expect(await total.value == 5_050)
  }

  @Test func aRecorderThatRecordsNothingReturnsAtOnce() async throws {
    let recorder = EventRecorder<Int>()
    recorder.handle(event: 1)
    try await recorder.waitUntilDelivered()
    #expect(recorder.events == [1])
  }

  @Test func aRecorderKeepsNoOutputAlive() async throws {
    let recorder = EventRecorder<Int>()
    weak var released: Output<Int>?
    do {
      let output = Output<Int>()
      released = output
      recorder.record(from: output, on: .queue(DispatchQueue(label: "gone")))
      output.send(1)
      try await output.waitUntilDelivered()
    }
    #expect(released == nil)
    try await recorder.waitUntilDelivered()
    #expect(recorder.events == [1])
  }
}
