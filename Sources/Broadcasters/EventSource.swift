/// Something a ``Broadcaster`` can observe: how to start observing, emitting decoded events, and how to stop.
///
/// A source describes an upstream (NotificationCenter names, a timer, a signal, an `AsyncSequence`); it does not
/// keep the observation itself. `start(emitting:)` returns a `Connection` that the broadcaster keeps and hands back to
/// `stop(_:)`. The broadcaster guarantees that a source is never started while one of its connections is live: each
/// `stop` returns before the next `start` begins, and neither runs while a lock is held.
///
/// ```swift
/// struct BatteryLevelSource: EventSource {
///   let monitor: BatteryMonitor
///   func start(emitting sink: EventSink<Double>) -> BatteryMonitor.Token {
///     monitor.observe { level in sink.send(level) }
///   }
///   func stop(_ token: BatteryMonitor.Token) {
///     monitor.removeObserver(token)
///   }
/// }
/// let battery = Broadcaster(source: BatteryLevelSource(monitor: .shared))
/// ```
///
/// Decode each upstream payload once, in the source, then `send` the result: the broadcaster fans it out to every
/// subscriber. Report a payload that cannot be decoded with ``EventSink/reportFailure(_:)`` instead of sending it.
public protocol EventSource<Event>: Sendable {
  /// The events the source emits.
  associatedtype Event: Sendable
  /// What `start(emitting:)` returns and `stop(_:)` receives: an observer token, a dispatch source, a task.
  associatedtype Connection: Sendable

  /// Starts observing and returns what `stop(_:)` needs to end the observation.
  ///
  /// Called when the broadcaster's first subscriber arrives, on that subscriber's thread. `sink` may be called from
  /// any thread, from now until `stop(_:)` returns (later calls are ignored), including before `start` returns.
  ///
  /// - Parameter sink: Where to send decoded events and report payloads that could not be decoded.
  /// - Returns: The live observation.
  func start(emitting sink: EventSink<Event>) -> Connection

  /// Ends the observation that `start(emitting:)` returned.
  ///
  /// Called when the last subscriber is gone or the broadcaster is released, on the thread that noticed: possibly
  /// from inside a call to the sink (a handler cancelled the last subscription). Must not wait for a sink call
  /// running on another thread.
  ///
  /// - Parameter connection: The value `start(emitting:)` returned.
  func stop(_ connection: Connection)
}
