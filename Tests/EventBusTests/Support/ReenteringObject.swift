@testable import EventBus

/// An object whose `deinit` calls back into the library: it reads the subscriber count of an output (a hub's event
/// type, a broadcaster), sends an event on it, subscribes to it and cancels that subscription, cancels the token it
/// was given, and then writes its name in a journal.
///
/// Give one to the library (captured by a handler or a trace hook, inside an event, as a source's connection) and the
/// library's last release of it runs that `deinit`. Under one of the library's locks, the first call back traps in a
/// debug build ("a lock was taken recursively") and deadlocks in a release build; the journal shows which objects
/// finished their `deinit`, so a test counts them exactly.
final class ReenteringObject: Sendable {
  let name: String
  private let reentry: Reentry
  private let journal: ReentryJournal
  private let token: EventSubscription?

  /// - Parameters:
  ///   - name: What the journal records.
  ///   - journal: Where the `deinit` records that it ran to the end.
  ///   - reentry: What the `deinit` calls.
  ///   - token: A subscription the `deinit` cancels, if any.
  init(_ name: String, journal: ReentryJournal, reentry: Reentry, cancelling token: EventSubscription? = nil) {
    self.name = name
    self.journal = journal
    self.reentry = reentry
    self.token = token
  }

  deinit {
    let count = reentry.subscriberCount()
    reentry.send()
    reentry.subscribe()?.cancel()
    token?.cancel()
    journal.record(name, subscriberCount: count)
  }
}

/// The calls a ``ReenteringObject`` makes, on one output, hub or broadcaster, which it holds weakly.
struct Reentry: Sendable {
  /// The live subscribers; `nil` when the target is gone.
  let subscriberCount: @Sendable () -> Int?
  /// Sends an event that does not re-enter.
  let send: @Sendable () -> Void
  /// Subscribes a handler that does nothing; `nil` when the target is gone.
  let subscribe: @Sendable () -> EventSubscription?

  /// Calls on `output`, sending `event`.
  static func output<Event: Sendable>(_ output: Output<Event>, sending event: Event) -> Reentry {
    Reentry(
      subscriberCount: { [weak output] in output?.subscriberCount },
      send: { [weak output] in output?.send(event) },
      subscribe: { [weak output] in output?.subscribe { _ in } }
    )
  }

  /// Calls on the events of `Event` on `hub`, posting `event`.
  static func hub<Event: Sendable>(_ hub: EventHub, posting event: Event) -> Reentry {
    Reentry(
      subscriberCount: { [weak hub] in hub?.subscriberCount(for: Event.self) },
      send: { [weak hub] in hub?.post(event) },
      subscribe: { [weak hub] in hub?.subscribe(Event.self) { _ in } }
    )
  }
}

/// What the `deinit`s of ``ReenteringObject``s recorded, in the order they finished.
final class ReentryJournal: Sendable {
  /// One finished `deinit`.
  struct Record: Equatable, Sendable {
    let name: String
    /// What it read from its target; `nil` if the target was gone.
    let subscriberCount: Int?
  }

  private let records = LockedState<[Record]>([])

  func record(_ name: String, subscriberCount: Int?) {
    records.withLock { $0.append(Record(name: name, subscriberCount: subscriberCount)) }
  }

  var all: [Record] { records.withLock { $0 } }
  /// The names, in the order the `deinit`s finished.
  var names: [String] { all.map(\.name) }
  var count: Int { records.withLock { $0.count } }
}

/// Keeps `objects` for the rest of the process. A test whose watchdog fired hands it what would call into the stuck
/// output when released (a token cancels its subscription, a re-entering object calls back), so that the test ends
/// instead of waiting for the lock the stuck thread holds.
func abandon(_ objects: any Sendable...) {
  abandoned.withLock { $0.append(contentsOf: objects) }
}

private let abandoned = LockedState<[any Sendable]>([])
