import Broadcasters
import EventBus
import Foundation
import Testing

@Suite struct AsyncSequenceSourceTests {
  @Test func iteratesTheSequenceOnceAndFansOutToEverySubscriber() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let iterations = Counter()
    let values = Broadcaster(
      source: AsyncSequenceSource {
        iterations.increment()
        return stream
      })
    let logs = (0..<20).map { _ in Log<Int>() }
    let tokens = logs.map { log in values.subscribe { log.append($0) } }
    for value in 1...50 {
      continuation.yield(value)
    }
    #expect(await eventually { logs.allSatisfy { $0.count == 50 } })
    #expect(logs.allSatisfy { $0.elements == Array(1...50) })
    #expect(iterations.count == 1)
    #expect(values.upstreamEventCount == 50)
    for token in tokens {
      token.cancel()
    }
  }

  @Test func disconnectingCancelsTheIteration() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let terminated = Counter()
    continuation.onTermination = { _ in terminated.increment() }
    let values = Broadcaster(source: AsyncSequenceSource(stream))
    let log = Log<Int>()
    let token = values.subscribe { log.append($0) }
    continuation.yield(1)
    #expect(await eventually { log.count == 1 })
    #expect(terminated.count == 0)
    token.cancel()
    #expect(await eventually { terminated.count == 1 })
  }

  @Test func aReconnectIteratesAFreshSequenceOnlyAfterThePreviousIterationEnded() async {
    struct Iterations {
      var live = 0
      var maxLive = 0
      var continuations: [AsyncStream<Int>.Continuation] = []
    }
    let iterations = LockedState(Iterations())
    let values = Broadcaster(
      source: AsyncSequenceSource {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.onTermination = { _ in iterations.withLock { $0.live -= 1 } }
        iterations.withLock { iterations in
          iterations.live += 1
          iterations.maxLive = max(iterations.maxLive, iterations.live)
          iterations.continuations.append(continuation)
        }
        return stream
      })
    for round in 1...20 {
      let log = Log<Int>()
      let token = values.subscribe { log.append($0) }
      #expect(await eventually { iterations.withLock { $0.continuations.count } == round })
      iterations.withLock { $0.continuations.last }?.yield(round)
      #expect(await eventually { log.count == 1 })
      #expect(log.elements == [round])
      token.cancel()
    }
    #expect(await eventually { iterations.withLock { $0.live } == 0 })
    #expect(iterations.withLock { $0.maxLive } == 1)
  }

  @Test func aSequenceThatThrowsIsReportedAsAFailure() async {
    struct Broken: Error {}
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
    let values = Broadcaster(source: AsyncSequenceSource(stream))
    let failures = Log<DecodeFailure>()
    values.onDecodeFailure = { failures.append($0) }
    let log = Log<Int>()
    let token = values.subscribe { log.append($0) }
    continuation.yield(1)
    continuation.finish(throwing: Broken())
    // The count goes up before the hook runs: wait for both.
    #expect(await eventually { values.decodeFailureCount == 1 && failures.count == 1 })
    #expect(log.elements == [1])
    #expect(failures.elements.first?.reason == .other("the sequence threw Broken()"))
    token.cancel()
  }

  @Test func aReleasedBroadcasterEndsItsIterationAndFreesEverything() async {
    struct IteratedEvent: Sendable {}
    let (stream, continuation) = AsyncStream.makeStream(of: IteratedEvent.self)
    let terminated = Counter()
    continuation.onTermination = { _ in terminated.increment() }
    let recorder = Recorder<IteratedEvent>()
    weak var weakBroadcaster: Broadcaster<IteratedEvent>?
    do {
      let broadcaster = Broadcaster(source: AsyncSequenceSource(stream))
      weakBroadcaster = broadcaster
      broadcaster.subscribe(recorder)
      continuation.yield(IteratedEvent())
      #expect(await eventually { recorder.events.count == 1 })
    }
    #expect(weakBroadcaster == nil)
    #expect(await eventually { terminated.count == 1 })
    #expect(await eventually { LiveObjects.total(for: IteratedEvent.self) == 0 })
  }
}
