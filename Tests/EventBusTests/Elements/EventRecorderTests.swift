import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

@Suite struct EventRecorderTests {
  @Test func recordsTheEventsOfAnyStreamInOrder() {
    struct Tick: Sendable, Equatable { let value: Int }
    let output = Output<Int>()
    let hub = EventHub()
    let fromOutput = EventRecorder(output)
    let fromChain = EventRecorder(output.map { "\($0)" }.removeDuplicates())
    let fromHub = EventRecorder(hub.events(of: Tick.self))
    for value in [1, 1, 2] { output.send(value) }
    hub.post(Tick(value: 3))
    #expect(fromOutput.events == [1, 1, 2])
    #expect(fromOutput.count == 3)
    #expect(fromChain.events == ["1", "2"])
    #expect(fromHub.events == [Tick(value: 3)])
  }

  @Test func oneRecorderRecordsSeveralStreamsIntoOneList() {
    let first = Output<Int>()
    let second = Output<Int>()
    let recorder = EventRecorder<Int>()
    recorder.record(from: first)
    recorder.record(from: second)
    first.send(1)
    second.send(2)
    first.send(3)
    #expect(recorder.events == [1, 2, 3])
  }

  @Test func cancellingTheReturnedHandleStopsThatRecording() {
    let output = Output<Int>()
    let recorder = EventRecorder<Int>()
    let recording = recorder.record(from: output)
    output.send(1)
    recording.cancel()
    output.send(2)
    #expect(recorder.events == [1])
    #expect(output.subscriberCount == 0)
  }

  @Test func releasingTheRecorderEndsItsRecording() {
    enum Probe: Sendable { case ping }
    let output = Output<Probe>()
    weak var weakRecorder: EventRecorder<Probe>?
    do {
      let recorder = EventRecorder(output)
      weakRecorder = recorder
      output.send(.ping)
      #expect(recorder.count == 1)
    }
    #expect(weakRecorder == nil)
    #expect(output.subscriberCount == 0)
    output.pruneDeadSubscribers()
    #expect(LiveObjects.count("Output.Entry", for: Probe.self) == 0)
  }

  @Test func aRecorderIsAnEventResponder() {
    let output = Output<Int>()
    let recorder = EventRecorder<Int>()
    output.subscribe(recorder)
    output.send(4)
    #expect(recorder.events == [4])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitReturnsTrueAtOnceWhenEnoughEventsAreAlreadyRecorded() async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    output.send(1)
    output.send(2)
    #expect(await recorder.waitForEvents(count: 2, timeout: .zero))
    #expect(await recorder.waitForEvents(count: 0, timeout: .zero))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitReturnsTrueWhenQueueDeliveredEventsArrive() async {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "recorder-test")
    let recorder = EventRecorder(output, on: .queue(queue))
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }
    for value in 0..<3 { output.send(value) }
    #expect(recorder.count == 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { gate.signal() }
    #expect(await recorder.waitForEvents(count: 3, timeout: .seconds(120)))
    #expect(recorder.events == [0, 1, 2])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitReturnsFalseWhenTheEventsDoNotComeInTime() async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    output.send(1)
    let start = Date()
    let arrived = await recorder.waitForEvents(count: 2, timeout: .milliseconds(100))
    let elapsed = Date().timeIntervalSince(start)
    #expect(!arrived)
    #expect(elapsed >= 0.1)
    // Generous: the waiter resumes on the cooperative pool, which can be more than a minute behind when every test
    // starts at once under ThreadSanitizer on two cores (74 s seen).
    #expect(elapsed < watchdogTimeout)
    // A later event does not disturb the waiter that gave up.
    output.send(2)
    #expect(recorder.events == [1, 2])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitReturnsFalseWhenTheWaitingTaskIsCancelled() async {
    // The waiters' own limit is far beyond the bound checked below, so only the cancel can end them in time. The
    // bound is generous: the cooperative pool can be more than a minute behind under ThreadSanitizer (74 s seen).
    let limit = 3 * watchdogTimeout
    let recorder = EventRecorder<Int>()
    let start = Date()
    let waiting = Task { await recorder.waitForEvents(count: 1, timeout: .seconds(limit)) }
    try? await Task.sleep(nanoseconds: 20_000_000)
    waiting.cancel()
    #expect(await waiting.value == false)
    #expect(Date().timeIntervalSince(start) < watchdogTimeout)

    let alreadyCancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await recorder.waitForEvents(count: 1, timeout: .seconds(limit))
    }
    #expect(await alreadyCancelled.value == false)
    #expect(Date().timeIntervalSince(start) < watchdogTimeout)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func severalWaitersAreEachResumedWhenTheirCountIsReached() async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    async let two = recorder.waitForEvents(count: 2, timeout: .seconds(120))
    async let four = recorder.waitForEvents(count: 4, timeout: .seconds(120))
    async let never = recorder.waitForEvents(count: 100, timeout: .milliseconds(200))
    Thread.detachNewThread {
      for value in 0..<4 {
        output.send(value)
        usleep(1_000)
      }
    }
    let results = await (two, four, never)
    #expect(results == (true, true, false))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @MainActor
  @Test func recordsOnTheMainActorAndWaitsWithoutBlockingIt() async {
    let output = Output<Int>()
    let recorder = EventRecorder(output, on: .main)
    Thread.detachNewThread {
      for value in 0..<5 { output.send(value) }
    }
    #expect(await recorder.waitForEvents(count: 5, timeout: .seconds(120)))
    #expect(recorder.events == Array(0..<5))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func recordsFromManyThreadsWithoutLosingAnEvent() async {
    let output = Output<Int>()
    let recorder = EventRecorder(output)
    let threads = 4
    let iterations = stressIterations(5_000)
    // The first thread starts the waiter: runs of threads take turns, and the wait for this run's turn must not count
    // against the waiter's timeout.
    let waiter = LockedState<Task<Bool, Never>?>(nil)
    await runConcurrently(threads: threads) { thread in
      if thread == 0 {
        waiter.withLock {
          $0 = Task { await recorder.waitForEvents(count: threads * iterations, timeout: .seconds(120)) }
        }
      }
      for iteration in 0..<iterations {
        output.send(thread * iterations + iteration)
      }
    }
    #expect(await waiter.withLock { $0 }?.value == true)
    #expect(Set(recorder.events) == Set(0..<(threads * iterations)))
  }
}
