import BenchHarness
import Foundation
import Testing

@testable import Bench

extension BenchTestSuite {
  @Suite(.enabled(if: HeapUsage.isAvailable, "needs heap statistics"))
  struct HeapUsageTests {
    private final class FourWords {
      var words = (0, 0, 0, 0)
    }

    @Test func growthCountsWhatTheBodyAllocatesAndKeeps() {
      // 16 bytes of object header and 32 of words: 48 bytes each at least, a 64-byte chunk on glibc; less what the
      // allocator's per-thread cache hides (at most 7 chunks of a size), plus some slack.
      #expect(
        withRetries {
          var kept: [FourWords] = []
          kept.reserveCapacity(1000)
          let growth = HeapUsage.growth {
            for _ in 0..<1000 {
              kept.append(FourWords())
            }
          }
          return growth.map { (48 * 1000 - 7 * 64)...(64 * 1000 + 4096) ~= $0 } ?? false
        })
    }

    @Test func growthIgnoresWhatTheBodyFrees() {
      #expect(
        withRetries {
          let growth = HeapUsage.growth {
            for _ in 0..<1000 {
              blackHole(FourWords())
            }
          }
          return growth.map { abs($0) < 4096 } ?? false
        })
    }

    @Test func theMemoryScenarioReportsBytesPerSubscriber() throws {
      let plan = MeasurementPlan(repetitions: 1, repetitionTarget: .microseconds(10))
      let contenders = Scenario.memory.contenders
      // Every subscription keeps something: at least a pointer's worth per responder, and less than a page.
      #expect(
        try withRetries {
          let figures = try MemoryScenario.measure(contenders: contenders, responderCount: 200, plan: plan)
          return figures.count == contenders.count && figures.allSatisfy { (8...4096).contains($0.median) }
        })
    }

    /// Whether `attempt` succeeds within 100 tries, 5 ms apart. The heap is the whole process's: the Bench suites
    /// run one at a time, but the tests of the other modules run beside them, and a burst of their allocations
    /// (hundreds of parallel cases) can move several readings in a row. A reading that is wrong for a reason of its
    /// own is wrong every time, so the test still fails then.
    private func withRetries(_ attempt: () throws -> Bool) rethrows -> Bool {
      for round in 0..<100 {
        if try attempt() { return true }
        if round < 99 { usleep(5_000) }
      }
      return false
    }
  }
}
