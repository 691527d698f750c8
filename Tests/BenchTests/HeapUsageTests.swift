import Testing

@testable import Bench

@Suite(.enabled(if: HeapUsage.isAvailable, "needs heap statistics"))
struct HeapUsageTests {
  private final class FourWords {
    var words = (0, 0, 0, 0)
  }

  @Test func growthCountsWhatTheBodyAllocatesAndKeeps() throws {
    var kept: [FourWords] = []
    kept.reserveCapacity(1000)
    let growth = try #require(
      HeapUsage.growth {
        for _ in 0..<1000 {
          kept.append(FourWords())
        }
      })
    // 16 bytes of object header and 32 of words: at least 48 bytes each, at most a 64-byte chunk plus slack.
    #expect(growth >= 48 * 1000)
    #expect(growth <= 64 * 1000 + 4096)
    #expect(kept.count == 1000)
  }

  @Test func growthIgnoresWhatTheBodyFrees() throws {
    let growth = try #require(
      HeapUsage.growth {
        for _ in 0..<1000 {
          blackHole(FourWords())
        }
      })
    #expect(growth < 4096)
  }

  @Test func theMemoryScenarioReportsBytesPerSubscriber() throws {
    let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(10))
    let contenders = Scenario.memory.contenders.filter(\.isAvailable)
    let figures = try MemoryScenario.measure(contenders: contenders, responderCount: 200, plan: plan)
    #expect(figures.count == contenders.count)
    // Every subscription keeps something: at least a pointer's worth per responder.
    #expect(figures.allSatisfy { $0 >= 8 }, "\(figures)")
  }
}
