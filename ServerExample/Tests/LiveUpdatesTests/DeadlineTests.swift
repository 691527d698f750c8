import Testing

@testable import LiveUpdates

@Suite struct DeadlineTests {
  @Test func anOperationThatFinishesInTimeGivesItsResult() async throws {
    let value = try await withDeadline(.seconds(5)) { 42 }
    #expect(value == 42)
  }

  @Test func anOperationThatDoesNotFinishInTimeIsRefusedAtTheDeadlineAndCancelled() async {
    let started = ContinuousClock.now
    await #expect(throws: DeadlinePassed.self) {
      try await withDeadline(.milliseconds(100)) {
        try await Task.sleep(for: .seconds(30))
        return 0
      }
    }
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test func anErrorOfTheOperationIsPassedOn() async {
    struct Refused: Error {}
    await #expect(throws: Refused.self) {
      try await withDeadline(.seconds(5)) { () async throws -> Int in throw Refused() }
    }
  }

  /// What an operation's result holds.
  final class Payload: Sendable {}

  @Test func anOperationThatFinishesLetsGoOfItsResultAtOnceNotAtTheDeadline() async throws {
    weak var payload: Payload?
    do {
      let result = try await withDeadline(.seconds(60)) { Payload() }
      payload = result
    }
    // The operation's task held the result until the timer that kept it slept out its deadline.
    for _ in 0..<100 where payload != nil {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(payload == nil)
  }

  @Test func aWaitForATokensEndSleepsInShortStepsAndEndsWhenCancelled() async throws {
    let started = ContinuousClock.now
    let waiting = Task { try await WebSocketClientConnection.sleep(until: .now + .seconds(3600)) }
    try await Task.sleep(for: .milliseconds(50))
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(WebSocketClientConnection.sleepStep <= .seconds(1))
    // A deadline already passed returns at once.
    try await WebSocketClientConnection.sleep(until: .now - .seconds(1))
  }
}
