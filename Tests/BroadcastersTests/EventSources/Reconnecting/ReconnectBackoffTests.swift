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

@Suite struct ReconnectBackoffExtremeValueTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static let durations: [Duration] = [
    .zero, .nanoseconds(1), .milliseconds(100), .seconds(1), .seconds(Int64.max), .seconds(Int64.min),
    .nanoseconds(Int64.max), .nanoseconds(Int64.min), Duration(secondsComponent: .max, attosecondsComponent: .max),
    Duration(secondsComponent: .min, attosecondsComponent: .min),
  ]
  static let multipliers: [Double] = [
    0, 1, 2, -1, 1e300, .greatestFiniteMagnitude, .infinity, -.infinity, .nan, .leastNonzeroMagnitude,
  ]
  static let fractions: [Double] = [0, 0.5, 0.999, 1, -1, 7, .infinity, -.infinity, .nan]
  static let failureCounts = [0, 1, 2, 63, 64, 1000, Int.max, -1, Int.min]

  /// Every combination, through `init` and through the settable properties.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static var backoffs: [ReconnectBackoff] {
    var backoffs: [ReconnectBackoff] = []
    for initial in durations {
      for maximum in durations {
        for multiplier in multipliers {
          for jitter in fractions {
            backoffs.append(
              ReconnectBackoff(initial: initial, maximum: maximum, multiplier: multiplier, jitter: jitter))
            var set = ReconnectBackoff()
            set.initial = initial
            set.maximum = maximum
            set.multiplier = multiplier
            set.jitter = jitter
            backoffs.append(set)
          }
        }
      }
    }
    return backoffs
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func noSettingOrArgumentTrapsAndEveryWaitLiesBetweenZeroAndTheLongestWait() {
    var checked = 0
    for backoff in Self.backoffs {
      for failures in Self.failureCounts {
        for fraction in Self.fractions {
          let wait = backoff.delay(afterFailures: failures, randomFraction: fraction)
          if wait < .zero || wait > ReconnectBackoff.longestWait {
            Issue.record("\(backoff), \(failures) failures, fraction \(fraction): \(wait)")
          }
          checked += 1
        }
      }
    }
    #expect(checked == 2 * 10 * 10 * 10 * 9 * 9 * 9)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aLongInitialWaitIsClampedToTheLongestWait() {
    let backoff = ReconnectBackoff(initial: .seconds(Int64.max), jitter: 0)
    #expect(backoff.initial == ReconnectBackoff.longestWait)
    #expect(backoff.maximum == ReconnectBackoff.longestWait)
    #expect(backoff.delay(afterFailures: 0, randomFraction: 0) == ReconnectBackoff.longestWait)
    #expect(backoff.delay(afterFailures: 5, randomFraction: 0) == ReconnectBackoff.longestWait)
    let halved = ReconnectBackoff(initial: .seconds(Int64.max), jitter: 0.5)
    #expect(halved.delay(afterFailures: 0, randomFraction: 1) < ReconnectBackoff.longestWait / 2 + .seconds(1))
    #expect(halved.delay(afterFailures: 0, randomFraction: 1) > ReconnectBackoff.longestWait / 2 - .seconds(1))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theLongestWaitCanBeSleptOnTheContinuousClockWithoutTrapping() async {
    let sleeper = Task { try await ContinuousClock().sleep(for: ReconnectBackoff.longestWait) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}
