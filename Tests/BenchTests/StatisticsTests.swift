import BenchHarness
import Testing

@testable import Bench

extension BenchTestSuite {
  @Suite struct StatisticsTests {
    @Test func medianOfAnOddCountIsTheMiddleValue() {
      #expect(Statistics.median([5, 1, 3]) == 3)
      #expect(Statistics.median([7]) == 7)
    }

    @Test func medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
      #expect(Statistics.median([4, 1, 3, 2]) == 2.5)
      #expect(Statistics.median([10, 20]) == 15)
    }

    @Test func medianIgnoresOneOutlier() {
      #expect(Statistics.median([1.0, 1.1, 0.9, 1.05, 250]) == 1.05)
    }

    @Test func durationConvertsToFractionalNanoseconds() {
      #expect(Duration.seconds(2).nanoseconds == 2e9)
      #expect(Duration.nanoseconds(1500).nanoseconds == 1500)
      #expect(Duration.microseconds(1.5).nanoseconds == 1500)
    }
  }
}
