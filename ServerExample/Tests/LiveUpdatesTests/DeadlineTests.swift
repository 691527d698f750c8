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
}
