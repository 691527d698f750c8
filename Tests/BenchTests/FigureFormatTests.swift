import BenchHarness
import Testing

@testable import Bench

extension BenchTestSuite {
  @Suite struct FigureFormatTests {
    @Test func numbersKeepAboutThreeSignificantDigits() {
      #expect(FigureFormat.number(0.61239) == "0.612")
      #expect(FigureFormat.number(3.049) == "3.05")
      #expect(FigureFormat.number(41.24) == "41.2")
      #expect(FigureFormat.number(1834.4) == "1834")
      #expect(FigureFormat.number(0) == "0.000")
      #expect(FigureFormat.number(100, isCount: true) == "100")
    }

    @Test func decimalsRoundHalfAwayFromZeroWithoutExponents() {
      #expect(FigureFormat.decimal(2.5, fractionDigits: 0) == "3")
      #expect(FigureFormat.decimal(-1.25, fractionDigits: 1) == "-1.3")
      #expect(FigureFormat.decimal(0.05, fractionDigits: 3) == "0.050")
      #expect(FigureFormat.decimal(1e-9, fractionDigits: 2) == "0.00")
      #expect(FigureFormat.decimal(123_456_789, fractionDigits: 1) == "123456789.0")
    }

    @Test func ratiosAndPercentagesCarryTheirSigns() {
      #expect(FigureFormat.ratio(1) == "1.00×")
      #expect(FigureFormat.ratio(12.44) == "12.4×")
      #expect(FigureFormat.ratio(818.2) == "818×")
      #expect(FigureFormat.ratio(0.5) == "0.500×")
      #expect(FigureFormat.ratio(0.09812) == "0.0981×")
      #expect(FigureFormat.ratio(0.0175) == "0.0175×")
      #expect(FigureFormat.ratio(0.0000012) == "0.000001×")
      #expect(FigureFormat.ratio(0) == "0.00×")
      #expect(FigureFormat.percentage(0.125) == "+12.5%")
      #expect(FigureFormat.percentage(-0.03) == "-3.0%")
      #expect(FigureFormat.percentage(0) == "+0.0%")
    }
  }
}
