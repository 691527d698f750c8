import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

// Copied from Tests/EventBusTests/Support (test targets cannot import each other), plus what broadcaster tests need.

/// A thread-safe list of what a handler saw.
final class Log<Element: Sendable>: Sendable {
  private let storage = LockedState<[Element]>([])

  func append(_ element: Element) {
    storage.withLock { $0.append(element) }
  }

  var elements: [Element] { storage.withLock { $0 } }
  var count: Int { storage.withLock { $0.count } }
}

/// A responder that records its events.
final class Recorder<Event: Sendable>: EventResponder, Sendable {
  let log = Log<Event>()

  func handle(event: Event) {
    log.append(event)
  }

  var events: [Event] { log.elements }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let value = LockedState(0)

  func increment() {
    value.withLock { $0 += 1 }
  }

  var count: Int { value.withLock { $0 } }
}

/// How much to scale stress tests: `EVENTBUS_STRESS_SCALE` (a Double, 1 by default; CI uses 0.25 under sanitizers).
let stressScale: Double = {
  guard let text = ProcessInfo.processInfo.environment["EVENTBUS_STRESS_SCALE"], let scale = Double(text), scale > 0
  else { return 1 }
  return scale
}()

/// `count` scaled by ``stressScale``, at least 1.
func scaled(_ count: Int) -> Int {
  max(1, Int((Double(count) * stressScale).rounded()))
}

/// Runs `body` on a thread of its own and waits for it, failing the test instead of hanging if it deadlocks.
@discardableResult
func withWatchdog(
  timeout: TimeInterval = 120,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Void
) async -> Bool {
  await runConcurrently(threads: 1, timeout: timeout, sourceLocation: sourceLocation) { _ in body() }
}

/// Polls `condition` until it holds or `timeout` passes, without blocking a thread; returns whether it held.
///
/// For what the library offers no wait for (a source's own task, Foundation's delivery of a message). The deadline is
/// generous, not tuned: a condition that never holds records an issue here, at the caller, saying so.
func eventually(
  timeout: TimeInterval = 120, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    if Date() > deadline {
      Issue.record(
        "waited \(Int(timeout)) s for the condition polled here; it never held", sourceLocation: sourceLocation)
      return false
    }
    try? await Task.sleep(nanoseconds: 1_000_000)
  }
  return true
}

/// A barrier that `parties` threads cross together, again and again. `arrive` returns `false` after `timeout`, so a
/// deadlocked test fails instead of hanging.
final class CyclicBarrier: Sendable {
  private struct State {
    var waiting = 0
    var generation = 0
  }

  private let parties: Int
  private let condition = NSCondition()
  private let state = LockedState(State())

  init(parties: Int) {
    self.parties = parties
  }

  func arrive(timeout: TimeInterval = 60) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let generation = state.withLock { state -> Int? in
      state.waiting += 1
      guard state.waiting == parties else { return state.generation }
      state.waiting = 0
      state.generation += 1
      return nil
    }
    guard let generation else {
      condition.broadcast()
      return true
    }
    let deadline = Date().addingTimeInterval(timeout)
    while state.withLock({ $0.generation }) == generation {
      if !condition.wait(until: deadline) { return false }
    }
    return true
  }
}

/// What a ``RecordingSource`` saw: its starts and stops, how many connections were live at once, and the sink of
/// the live connection so a test can emit.
final class SourceProbe<Event: Sendable>: Sendable {
  struct State {
    var starts = 0
    var stops = 0
    var live = 0
    var maxLive = 0
    /// Each `start` and `stop`, in order: `true` for a start. Strict alternation proves no overlap.
    var history: [Bool] = []
    var sink: EventSink<Event>?
    var liveConnection: Int?
    var mismatchedStops = 0
  }

  let state = LockedState(State())
  /// Run inside `start`, with the new sink, before it returns.
  let onStart: (@Sendable (EventSink<Event>) -> Void)?
  /// Microseconds to sleep inside `start` and `stop`, to widen race windows.
  let pause: UInt32

  init(pause: UInt32 = 0, onStart: (@Sendable (EventSink<Event>) -> Void)? = nil) {
    self.pause = pause
    self.onStart = onStart
  }

  var starts: Int { state.withLock { $0.starts } }
  var stops: Int { state.withLock { $0.stops } }
  var live: Int { state.withLock { $0.live } }
  var maxLive: Int { state.withLock { $0.maxLive } }
  var sink: EventSink<Event>? { state.withLock { $0.sink } }

  /// Whether starts and stops strictly alternated, beginning with a start.
  var alternated: Bool {
    state.withLock { state in
      state.history.enumerated().allSatisfy { index, isStart in isStart == (index % 2 == 0) }
    }
  }

  /// Sends `event` through the live connection's sink; `false` if not connected.
  @discardableResult
  func emit(_ event: Event) -> Bool {
    guard let sink else { return false }
    sink.send(event)
    return true
  }
}

/// A source that records its own starts and stops in a ``SourceProbe``.
struct RecordingSource<Event: Sendable>: EventSource {
  let probe: SourceProbe<Event>

  func start(emitting sink: EventSink<Event>) -> Int {
    let connection = probe.state.withLock { state in
      state.starts += 1
      state.live += 1
      state.maxLive = max(state.maxLive, state.live)
      state.history.append(true)
      state.sink = sink
      state.liveConnection = state.starts
      return state.starts
    }
    if probe.pause > 0 { usleep(probe.pause) }
    probe.onStart?(sink)
    return connection
  }

  func stop(_ connection: Int) {
    if probe.pause > 0 { usleep(probe.pause) }
    let sink = probe.state.withLock { state -> EventSink<Event>? in
      state.stops += 1
      state.live -= 1
      state.history.append(false)
      if state.liveConnection != connection { state.mismatchedStops += 1 }
      state.liveConnection = nil
      defer { state.sink = nil }
      return state.sink
    }
    _ = sink  // released outside the lock
  }
}

extension Broadcaster {
  /// A broadcaster over a fresh ``RecordingSource``, and its probe.
  static func recording(
    pause: UInt32 = 0,
    onStart: (@Sendable (EventSink<Event>) -> Void)? = nil
  ) -> (Broadcaster<Event>, SourceProbe<Event>) {
    let probe = SourceProbe<Event>(pause: pause, onStart: onStart)
    return (Broadcaster(source: RecordingSource(probe: probe)), probe)
  }
}
