import Dispatch
import Foundation

/// A repeating timer: one `DispatchSourceTimer` for every subscriber of a ``Broadcaster``, emitting the time of each
/// tick.
///
/// ```swift
/// let clock = Broadcaster(source: TimerSource(interval: .seconds(1)))
/// clock.subscribe(statusBar) { bar, now in bar.show(now) }   // the timer runs while anyone listens
/// ```
///
/// The timer starts with the first subscriber, first fires one interval later, and is cancelled when the last
/// subscriber is gone. Every subscriber receives the same `Date` for a tick. Ticks are emitted on a private serial
/// queue; subscribers choose where their handlers run with their delivery context.
///
/// ## Time from a clock
/// ``init(every:clock:)`` waits on a `Clock` instead of a dispatch timer: `ContinuousClock` by default, or a clock
/// that a test moves by hand, so that a screen refreshing every 30 seconds is tested without waiting 30 seconds.
///
/// ```swift
/// let refresh = Broadcaster(source: TimerSource(every: .seconds(30), clock: clock))
/// ```
///
/// Such a timer sleeps in a task until one interval after the previous tick's deadline, then emits `Date()`: the
/// clock decides when a tick comes, the wall clock what it carries. A tick that comes later than a whole interval
/// after its deadline does not make up the ticks it missed: the next one is due one interval after it.
public struct TimerSource: EventSource {
  /// The timer or the ticking task of one connection.
  public struct Connection {
    fileprivate let timer: (any DispatchSourceTimer)?
    fileprivate let task: Task<Void, Never>?
  }

  /// The time between ticks.
  public let interval: DispatchTimeInterval
  /// How late the system may fire a tick, to save power.
  public let leeway: DispatchTimeInterval

  /// Creates a timer source.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks. A negative interval counts as zero (Dispatch traps on one): the timer
  ///     then ticks as often as it can. `.never` ticks never.
  ///   - leeway: How late the system may fire a tick; none by default. A negative leeway counts as zero.
  /// Starts the ticking task of a timer made with ``init(every:clock:)``; `nil` for a dispatch timer.
  private let startTicking: (@Sendable (EventSink<Date>) -> Task<Void, Never>)?

  public init(interval: DispatchTimeInterval, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    self.interval = Self.nonNegative(interval)
    self.leeway = Self.nonNegative(leeway)
    startTicking = nil
  }

  /// Creates a timer source that waits on `clock`.
  ///
  /// ```swift
  /// let ticks = TimerSource(every: .seconds(30))   // ContinuousClock
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks. A negative interval counts as zero: the timer then ticks as often as the
  ///     clock lets it. One longer than 2^63 - 1 nanoseconds (about 292 years) counts as that long.
  ///   - clock: What the timer waits on; `ContinuousClock` by default. A test passes a clock it advances by hand.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public init(every interval: Duration, clock: some Clock<Duration> = ContinuousClock()) {
    // A clock's `sleep` traps on a deadline past what its instant holds: no interval is longer than 2^63 - 1 ns
    // (about 292 years).
    let interval = min(max(interval, .zero), .nanoseconds(Int64.max))
    let (seconds, attoseconds) = interval.components
    self.interval =
      Int(exactly: seconds * 1_000_000_000 + attoseconds / 1_000_000_000).map { .nanoseconds($0) } ?? .never
    leeway = .nanoseconds(0)
    startTicking = { sink in
      Task { await Self.tick(every: interval, on: clock, emitting: sink) }
    }
  }

  /// Emits the time one interval after each deadline, until the task is cancelled.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static func tick<C: Clock<Duration>>(every interval: Duration, on clock: C, emitting sink: EventSink<Date>)
    async
  {
    var deadline = clock.now.advanced(by: interval)
    while true {
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return
      }
      guard !Task.isCancelled else { return }
      sink.send(Date())
      let now = clock.now
      deadline = deadline.advanced(by: interval)
      if deadline < now {
        deadline = now.advanced(by: interval)
      }
    }
  }

  /// `interval`, or zero if it is negative.
  private static func nonNegative(_ interval: DispatchTimeInterval) -> DispatchTimeInterval {
    switch interval {
    case .seconds(let value) where value < 0, .milliseconds(let value) where value < 0,
      .microseconds(let value) where value < 0, .nanoseconds(let value) where value < 0:
      .nanoseconds(0)
    default:
      interval
    }
  }

  /// Starts a timer whose first tick comes one interval from now.
  ///
  /// - Parameter sink: Where the time of each tick goes.
  /// - Returns: The timer.
  public func start(emitting sink: EventSink<Date>) -> Connection {
    if let startTicking {
      return Connection(timer: nil, task: startTicking(sink))
    }
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Broadcasters.TimerSource"))
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
    timer.setEventHandler {
      sink.send(Date())
    }
    timer.resume()
    return Connection(timer: timer, task: nil)
  }

  /// Cancels the timer.
  ///
  /// - Parameter connection: The value `start(emitting:)` returned.
  public func stop(_ connection: Connection) {
    connection.timer?.cancel()
    connection.task?.cancel()
  }
}

// A dispatch source is thread-safe; the connection only ever calls `cancel()` on it.
extension TimerSource.Connection: @unchecked Sendable {}
