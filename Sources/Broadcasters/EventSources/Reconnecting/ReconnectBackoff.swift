/// How long a ``ReconnectingSource`` waits before connecting again: exponential, capped, with jitter.
///
/// The wait depends on how many attempts in a row failed, *n*: it is ``initial`` × ``multiplier``^*n*, up to
/// ``maximum``, less the jitter.
///
/// - After a *loss* (a session that had connected ends), *n* is 0: the next attempt waits ``initial``.
/// - After a *failed attempt* (a session that ends before it connected), *n* counts that attempt. At a cold start
///   whose attempts fail, the waits are therefore ``initial`` × ``multiplier``, then × ``multiplier`` again: 2 s, then
///   4 s, for an `initial` of 1 s and the default multiplier of 2. The same holds for failed attempts after a loss:
///   1 s, then 2 s, then 4 s.
/// - A session that connects starts the count again.
///
/// Jitter shortens each wait by a random fraction of up to ``jitter`` (a fifth, by default), so that processes that
/// lost their connections together (a database restart) do not all reconnect in the same instant. It is not seeded:
/// a test that checks the waits, on a `ManualClock` for example, sets `jitter: 0`, and then every wait is exactly the
/// rule's.
///
/// ```swift
/// let backoff = ReconnectBackoff(initial: .milliseconds(50), maximum: .seconds(5))
/// let exact = ReconnectBackoff(initial: .seconds(1), jitter: 0)   // for tests: waits of 1, 2, 4 s … exactly
/// ```
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct ReconnectBackoff: Sendable, Hashable {
  /// The wait before the first attempt after a loss.
  public var initial: Duration
  /// The longest wait.
  public var maximum: Duration
  /// What each failed attempt multiplies the wait by.
  public var multiplier: Double
  /// The largest fraction of a wait that jitter may take off, from 0 (none) to 1.
  public var jitter: Double

  /// The longest wait a backoff gives: 2^63 - 1 nanoseconds, about 292 years. A clock traps when asked to sleep
  /// until a deadline past what its instant holds, so longer settings count as this.
  public static let longestWait = Duration.nanoseconds(Int64.max)

  /// Creates a backoff.
  ///
  /// - Parameters:
  ///   - initial: The wait before the first attempt after a loss; 100 ms by default. A negative value counts as zero,
  ///     one longer than ``longestWait`` as ``longestWait``.
  ///   - maximum: The longest wait; 10 s by default. It counts as `initial` if it is shorter, and as ``longestWait``
  ///     if it is longer.
  ///   - multiplier: What each failed attempt multiplies the wait by; 2 by default, at least 1.
  ///   - jitter: The largest fraction of a wait that jitter may take off; 0.2 by default, clamped to 0...1. Pass 0 in a
  ///     test that checks the waits: the jitter is random, and not seeded.
  public init(
    initial: Duration = .milliseconds(100),
    maximum: Duration = .seconds(10),
    multiplier: Double = 2,
    jitter: Double = 0.2
  ) {
    self.initial = Self.clamped(initial)
    self.maximum = max(Self.clamped(maximum), self.initial)
    self.multiplier = Self.clamped(multiplier: multiplier)
    self.jitter = Self.clamped(jitter: jitter)
  }

  /// The wait before the next attempt, after `failures` attempts that failed since the last connection.
  ///
  /// The properties are clamped here as in `init`, since they may have been set since: no value of any of them, nor
  /// of the arguments, traps.
  ///
  /// - Parameters:
  ///   - failures: How many attempts in a row failed; 0 right after a loss.
  ///   - randomFraction: A number in `0..<1` that picks the jitter.
  func delay(afterFailures failures: Int, randomFraction: Double) -> Duration {
    let initial = Self.clamped(initial)
    let maximum = max(Self.clamped(maximum), initial)
    let multiplier = Self.clamped(multiplier: multiplier)
    let jitter = Self.clamped(jitter: jitter)
    let maximumSeconds = Self.seconds(maximum)
    var seconds = Self.seconds(initial)
    var remaining = failures
    while remaining > 0, seconds > 0, seconds < maximumSeconds, multiplier > 1 {
      seconds *= multiplier
      remaining -= 1
    }
    seconds = min(seconds, maximumSeconds)
    seconds *= 1 - jitter * (randomFraction.isFinite ? min(max(randomFraction, 0), 1) : 0)
    // Whole nanoseconds, within `maximum`: the product may have rounded past it, and `Int64` holds the nanoseconds
    // of every wait up to `longestWait`, but not the ones a rounding up to 2^63 would make.
    let nanoseconds = (seconds * 1e9).rounded()
    guard nanoseconds < 0x1p63 else { return maximum }
    return min(.nanoseconds(Int64(nanoseconds)), maximum)
  }

  private static func clamped(_ wait: Duration) -> Duration {
    min(max(wait, .zero), longestWait)
  }

  private static func clamped(multiplier: Double) -> Double {
    multiplier.isFinite ? max(multiplier, 1) : 1
  }

  private static func clamped(jitter: Double) -> Double {
    jitter.isFinite ? min(max(jitter, 0), 1) : 0
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
