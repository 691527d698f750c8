import Broadcasters
import EventBus
import Foundation
import Testing

@Suite struct DecodingSourceTests {
  private struct NotANumber: Error, CustomStringConvertible {
    let text: String
    var description: String { "not a number: \(text)" }
  }

  private static func number(_ text: String) throws -> Int {
    guard let value = Int(text) else { throw NotANumber(text: text) }
    return value
  }

  @Test func decodesEachPayloadOnceHoweverManySubscribersThereAre() async {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    let decodes = Counter()
    let numbers = Broadcaster(
      source: DecodingSource(stream) { text in
        decodes.increment()
        return try Self.number(text)
      })
    let logs = (0..<20).map { _ in Log<Int>() }
    let tokens = logs.map { log in numbers.subscribe { log.append($0) } }
    for value in 1...50 {
      continuation.yield("\(value)")
    }
    #expect(await eventually { logs.allSatisfy { $0.count == 50 } })
    #expect(logs.allSatisfy { $0.elements == Array(1...50) })
    #expect(decodes.count == 50)
    #expect(numbers.upstreamEventCount == 50)
    for token in tokens {
      token.cancel()
    }
  }

  @Test func aPayloadThatDoesNotDecodeIsCountedReportedAndDeliveredToNobody() async {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    let numbers = Broadcaster(source: DecodingSource(name: "numbers", stream, decode: Self.number))
    let failures = Log<DecodeFailure>()
    numbers.onDecodeFailure = { failures.append($0) }
    let logs = (0..<3).map { _ in Log<Int>() }
    let tokens = logs.map { log in numbers.subscribe { log.append($0) } }
    for text in ["1", "x", "2", "", "3"] {
      continuation.yield(text)
    }
    #expect(await eventually { logs.allSatisfy { $0.count == 3 } })
    #expect(logs.allSatisfy { $0.elements == [1, 2, 3] })
    #expect(numbers.decodeFailureCount == 2)
    #expect(
      failures.elements == [
        DecodeFailure(name: "numbers", reason: .other("not a number: x")),
        DecodeFailure(name: "numbers", reason: .other("not a number: ")),
      ])
    for token in tokens {
      token.cancel()
    }
  }

  @Test func aDecodeFailureThrownByTheDecoderIsReportedAsItIsWithTheNameFilledIn() async {
    let (stream, continuation) = AsyncStream.makeStream(of: [String: String].self)
    let prices = Broadcaster(
      source: DecodingSource(name: "prices", stream) { fields -> Double in
        guard let text = fields["price"] else { throw DecodeFailure(key: "price", reason: .missingKey) }
        guard let price = Double(text) else {
          throw DecodeFailure(name: "quotes", key: "price", reason: .wrongType(expected: "Double", found: text))
        }
        return price
      })
    let failures = Log<DecodeFailure>()
    prices.onDecodeFailure = { failures.append($0) }
    let log = Log<Double>()
    let token = prices.subscribe { log.append($0) }
    continuation.yield(["bid": "1"])
    continuation.yield(["price": "cheap"])
    continuation.yield(["price": "2.5"])
    #expect(await eventually { log.count == 1 })
    #expect(log.elements == [2.5])
    #expect(
      failures.elements == [
        DecodeFailure(name: "prices", key: "price", reason: .missingKey),
        DecodeFailure(name: "quotes", key: "price", reason: .wrongType(expected: "Double", found: "cheap")),
      ])
    token.cancel()
  }

  @Test func aSequenceThatThrowsIsReportedAndEndsTheEvents() async {
    struct Broken: Error {}
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self)
    let numbers = Broadcaster(source: DecodingSource(name: "numbers", stream, decode: Self.number))
    let failures = Log<DecodeFailure>()
    numbers.onDecodeFailure = { failures.append($0) }
    let log = Log<Int>()
    let token = numbers.subscribe { log.append($0) }
    continuation.yield("1")
    continuation.finish(throwing: Broken())
    // The count goes up before the hook runs: wait for both.
    #expect(await eventually { numbers.decodeFailureCount == 1 && failures.count == 1 })
    #expect(log.elements == [1])
    #expect(failures.elements == [DecodeFailure(name: "numbers", reason: .other("the sequence threw Broken()"))])
    token.cancel()
  }

  @Test func iterationsNeverOverlapAcrossDisconnectsAndReconnects() async {
    struct Iterations {
      var live = 0
      var maxLive = 0
      var continuations: [AsyncStream<String>.Continuation] = []
    }
    let iterations = LockedState(Iterations())
    let numbers = Broadcaster(
      source: DecodingSource(
        {
          let (stream, continuation) = AsyncStream.makeStream(of: String.self)
          continuation.onTermination = { _ in iterations.withLock { $0.live -= 1 } }
          iterations.withLock { iterations in
            iterations.live += 1
            iterations.maxLive = max(iterations.maxLive, iterations.live)
            iterations.continuations.append(continuation)
          }
          return stream
        }, decode: Self.number))
    for round in 1...20 {
      let log = Log<Int>()
      let token = numbers.subscribe { log.append($0) }
      #expect(await eventually { iterations.withLock { $0.continuations.count } == round })
      iterations.withLock { $0.continuations.last }?.yield("\(round)")
      #expect(await eventually { log.count == 1 })
      #expect(log.elements == [round])
      token.cancel()
    }
    #expect(await eventually { iterations.withLock { $0.live } == 0 })
    #expect(iterations.withLock { $0.maxLive } == 1)
  }
}
