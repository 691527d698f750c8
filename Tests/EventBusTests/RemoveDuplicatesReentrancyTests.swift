import EventBusTestSupport
import Testing

@testable import EventBus

/// `removeDuplicates()` keeps the previous event of each subscription behind a lock. Releasing that event runs its
/// `deinit`, and comparing runs its `==`: both are user code, and must run after the lock is released (G8).
@Suite struct RemoveDuplicatesReentrancyTests {
  /// A stream that calls its handlers synchronously inside `send`, even from a handler or a `deinit`, unlike an
  /// `Output`, which queues such a send. It is what makes a call back into the operator reach it at once.
  final class SynchronousStream: EventStream {
    typealias Event = Note
    private let handlers = LockedState<[@Sendable (Note) -> Void]>([])
    private let tokens = Output<Note>()

    func send(_ note: Note) {
      for handler in handlers.withLock({ $0 }) {
        handler(note)
      }
    }

    func _subscribe<Responder: AnyObject & Sendable>(
      _ responder: Responder,
      on context: DeliveryContext,
      at location: CallSite,
      _ handler: @escaping @Sendable (Responder, Note) -> Void
    ) -> ResponderSubscription {
      let box = WeakBox(responder)
      handlers.withLock { $0.append { note in box.value.map { handler($0, note) } } }
      return tokens._subscribe(responder, on: context, at: location) { _, _ in }
    }

    func _subscribe(
      on context: DeliveryContext,
      at location: CallSite,
      _ handler: @escaping @Sendable (Note) -> Void
    ) -> EventSubscription {
      handlers.withLock { $0.append(handler) }
      return tokens._subscribe(on: context, at: location) { _ in }
    }
  }

  final class WeakBox<Value: AnyObject & Sendable>: Sendable {
    weak let value: Value?
    init(_ value: Value) { self.value = value }
  }

  /// An event that may send another event into the stream from its `deinit`.
  final class Note: Equatable, Sendable {
    let text: String
    let onDeinit: (@Sendable () -> Void)?

    init(_ text: String, onDeinit: (@Sendable () -> Void)? = nil) {
      self.text = text
      self.onDeinit = onDeinit
    }

    deinit { onDeinit?() }

    static func == (lhs: Note, rhs: Note) -> Bool { lhs.text == rhs.text }
  }

  @Test func releasingThePreviousEventRunsItsDeinitOutsideTheLock() async {
    let stream = SynchronousStream()
    let log = Log<String>()
    let token = stream.removeDuplicates().subscribe { log.append($0.text) }
    // With the previous event released under the lock, the nested send would take the same lock again: the debug
    // build's error-checking lock traps, a release build deadlocks. The watchdog turns a deadlock into a failure.
    let finished = await runOnThread(timeout: 30) {
      stream.send(Note("first") { stream.send(Note("from deinit")) })
      stream.send(Note("second"))
    }
    #expect(finished)
    #expect(log.elements == ["first", "second", "from deinit"])
    withExtendedLifetime(token) {}
  }
}
