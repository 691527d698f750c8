import Foundation

@testable import EventBus

/// A thread-safe list of what a handler saw.
final class Log<Element: Sendable>: Sendable {
  private let storage = LockedState<[Element]>([])

  func append(_ element: Element) {
    storage.withLock { $0.append(element) }
  }

  var elements: [Element] { storage.withLock { $0 } }
  var count: Int { storage.withLock { $0.count } }
  var last: Element? { storage.withLock { $0.last } }
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

/// A thread-safe counter.
final class Counter: Sendable {
  private let value = LockedState(0)

  /// Adds one and returns the new value.
  @discardableResult
  func increment() -> Int {
    value.withLock {
      $0 += 1
      return $0
    }
  }

  var current: Int { value.withLock { $0 } }
}

/// A logical clock shared by threads: every `tick()` returns a value larger than any returned before it, so ticks
/// taken on different threads order the moments at which they were taken (the clock's lock orders them).
final class LogicalClock: Sendable {
  private let value = LockedState(0)

  func tick() -> Int {
    value.withLock {
      $0 += 1
      return $0
    }
  }

  /// The last tick handed out.
  var now: Int { value.withLock { $0 } }
}

/// Measures how many handlers run at the same moment (G2: never more than one per output).
final class ConcurrencyGauge: Sendable {
  private let state = LockedState((inside: 0, maximum: 0))

  @discardableResult
  func measure<Result>(_ body: () throws -> Result) rethrows -> Result {
    state.withLock { state in
      state.inside += 1
      state.maximum = max(state.maximum, state.inside)
    }
    defer { state.withLock { $0.inside -= 1 } }
    return try body()
  }

  /// The most handlers seen running at once.
  var maximum: Int { state.withLock { $0.maximum } }
}

/// A thread-safe flag.
final class Flag: Sendable {
  private let value = LockedState(false)

  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

/// Holds one value that any thread can read, replace or take away. Holding an object here decides where its last
/// release happens; holding a subscription lets a handler reach its own subscription.
final class Slot<Value: Sendable>: Sendable {
  private let storage: LockedState<Value?>

  init(_ value: Value? = nil) {
    storage = LockedState(value)
  }

  /// Removes the value and returns it, so the caller's release is the slot's last.
  func take() -> Value? {
    storage.withLock { value in
      defer { value = nil }
      return value
    }
  }

  /// Stores `newValue`; the old value is released outside the lock, because its deinit may use the slot.
  func put(_ newValue: Value?) {
    let old = storage.withLock { value in
      defer { value = newValue }
      return value
    }
    _ = old
  }

  var value: Value? { storage.withLock { $0 } }

  /// Whether the slot is empty; unlike `value`, it takes no reference to what the slot holds.
  var isEmpty: Bool { storage.withLock { $0 == nil } }
}

/// An object whose only job is to say when it deinitialises, and to run a closure then.
final class LifetimeProbe: Sendable {
  private let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void = {}) {
    self.onDeinit = onDeinit
  }

  deinit {
    onDeinit()
  }
}
