import Testing

@testable import Broadcasters

@Suite struct ReconnectBackoffTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theWaitStartsAtTheInitialOneAndMultipliesUpToTheMaximum() {
    let backoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(1), multiplier: 3, jitter: 0)
    let waits = (0...5).map { backoff.delay(afterFailures: $0, randomFraction: 0.5) }
    #expect(
      waits == [.milliseconds(100), .milliseconds(300), .milliseconds(900), .seconds(1), .seconds(1), .seconds(1)])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func jitterTakesOffAtMostItsFractionOfTheWait() {
    let backoff = ReconnectBackoff(initial: .seconds(1), jitter: 0.25)
    #expect(backoff.delay(afterFailures: 0, randomFraction: 0) == .seconds(1))
    #expect(backoff.delay(afterFailures: 0, randomFraction: 0.5) == .milliseconds(875))
    #expect(backoff.delay(afterFailures: 0, randomFraction: 0.99) == .microseconds(752_500))
    #expect(backoff.delay(afterFailures: 0, randomFraction: 7) == .milliseconds(750))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func outOfRangeSettingsAreClampedInsteadOfTrapping() {
    let backoff = ReconnectBackoff(initial: .seconds(-1), maximum: .seconds(-5), multiplier: .nan, jitter: 9)
    #expect(backoff.initial == .zero)
    #expect(backoff.maximum == .zero)
    #expect(backoff.multiplier == 1)
    #expect(backoff.jitter == 1)
    #expect(backoff.delay(afterFailures: Int.max, randomFraction: 0) == .zero)
    let shortMaximum = ReconnectBackoff(initial: .seconds(2), maximum: .seconds(1), multiplier: 0.5)
    #expect(shortMaximum.maximum == .seconds(2))
    #expect(shortMaximum.multiplier == 1)
  }
}
