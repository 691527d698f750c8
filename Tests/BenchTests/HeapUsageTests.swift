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

    @Test func growthCountsWhatTheBodyAllocatesAndKeeps() async {
      // 16 bytes of object header and 32 of words: 48 bytes each at least, a 64-byte chunk on glibc; less what the
      // allocator's per-thread cache hides (at most 7 chunks of a size), plus some slack.
      #expect(
        await withRetries {
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

    @Test func growthIgnoresWhatTheBodyFrees() async {
      #expect(
        await withRetries {
          let growth = HeapUsage.growth {
            for _ in 0..<1000 {
              blackHole(FourWords())
            }
          }
          return growth.map { abs($0) < 4096 } ?? false
        })
    }

    @Test func theMemoryScenarioReportsBytesPerSubscriber() async throws {
      let plan = MeasurementPlan(repetitions: 1, repetitionTarget: .microseconds(10))
      let contenders = Scenario.memory.contenders
      // Every subscription keeps something: at least a pointer's worth per responder, and less than a page.
      #expect(
        try await withRetries {
          let figures = try MemoryScenario.measure(contenders: contenders, responderCount: 200, plan: plan)
          return figures.count == contenders.count && figures.allSatisfy { (8...4096).contains($0.median) }
        })
    }

    /// Whether `attempt` succeeds within two minutes of tries, 10 ms apart. The heap is the whole process's: the
    /// Bench suites run one at a time, but the tests of the other modules run beside them, and their allocations
    /// (hundreds of parallel cases, slower on a busy machine) can move every reading for as long as they run, which
    /// is tens of seconds on a loaded 2-core machine. A reading that is wrong for a reason of its own is wrong every
    /// time, so the test still fails then. It suspends between tries, leaving its cooperative thread to those tests.
    private func withRetries(_ attempt: () throws -> Bool) async rethrows -> Bool {
      let deadline = Date().addingTimeInterval(120)
      while true {
        if try attempt() { return true }
        guard Date() < deadline else { return false }
        try? await Task.sleep(nanoseconds: 10_000_000)
      }
    }
  }
}
