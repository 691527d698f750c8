import Foundation
import Testing

@testable import EventBus

/// A thread-safe list of what a handler saw.
final class Log<Element: Sendable>: Sendable {
  private let storage = LockedState<[Element]>([])

  func append(_ element: Element) {
    storage.withLock { $0.append(element) }
  }

  var elements: [Element] { storage.withLock { $0 } }
  var count: Int { storage.withLock { $0.count } }
}

/// A responder that records its events; its `deinit` can run a closure.
final class Recorder<Event: Sendable>: EventResponder, Sendable {
  let log = Log<Event>()
  private let onDeinit: LockedState<(@Sendable () -> Void)?>

  init(onDeinit: (@Sendable () -> Void)? = nil) {
    self.onDeinit = LockedState(onDeinit)
  }

  deinit {
    onDeinit.withLock { $0 }?()
  }

  func handle(event: Event) {
    log.append(event)
  }

  var events: [Event] { log.elements }
}

/// Starts `count` threads together behind a barrier and waits for all of them, failing the test (instead of hanging)
/// if they don't finish within `timeout`.
func runConcurrently(
  threads count: Int,
  timeout: TimeInterval = 60,
  sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (Int) -> Void
) {
  let ready = DispatchGroup()
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for index in 0..<count {
    ready.enter()
    done.enter()
    let thread = Thread {
      ready.leave()
      start.wait()
      body(index)
      done.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  ready.wait()
  for _ in 0..<count { start.signal() }
  let finished = done.wait(timeout: .now() + timeout) == .success
  #expect(
    finished, "watchdog: \(count) threads did not finish within \(timeout) s (deadlock?)",
    sourceLocation: sourceLocation)
}
