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
public struct TimerSource: EventSource {
  /// The timer of one connection.
  public struct Connection {
    fileprivate let timer: any DispatchSourceTimer
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
  public init(interval: DispatchTimeInterval, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    self.interval = Self.nonNegative(interval)
    self.leeway = Self.nonNegative(leeway)
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
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Broadcasters.TimerSource"))
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
    timer.setEventHandler {
      sink.send(Date())
    }
    timer.resume()
    return Connection(timer: timer)
  }

  /// Cancels the timer.
  ///
  /// - Parameter connection: The value `start(emitting:)` returned.
  public func stop(_ connection: Connection) {
    connection.timer.cancel()
  }
}

// A dispatch source is thread-safe; the connection only ever calls `cancel()` on it.
extension TimerSource.Connection: @unchecked Sendable {}
