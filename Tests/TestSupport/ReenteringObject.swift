import EventBus

/// An object whose `deinit` calls back into the library: it reads the subscriber count of an output (a hub's event
/// type, a broadcaster), sends an event on it, subscribes to it and cancels that subscription, cancels the token it
/// was given, and then writes its name in a journal.
///
/// Give one to the library (captured by a handler or a trace hook, inside an event, as a source's connection) and the
/// library's last release of it runs that `deinit`. Under one of the library's locks, the first call back traps in a
/// debug build ("a lock was taken recursively") and deadlocks in a release build; the journal shows which objects
/// finished their `deinit`, so a test counts them exactly.
public final class ReenteringObject: Sendable {
  public let name: String
  private let reentry: Reentry
  private let journal: ReentryJournal
  private let token: EventSubscription?

  /// - Parameters:
  ///   - name: What the journal records.
  ///   - journal: Where the `deinit` records that it ran to the end.
  ///   - reentry: What the `deinit` calls.
  ///   - token: A subscription the `deinit` cancels, if any.
  public init(_ name: String, journal: ReentryJournal, reentry: Reentry, cancelling token: EventSubscription? = nil) {
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

/// The calls a ``ReenteringObject`` makes, on one output, hub or broadcaster, which it holds weakly. Each test target
/// adds the factories for what it tests.
public struct Reentry: Sendable {
  /// The live subscribers; `nil` when the target is gone.
  public let subscriberCount: @Sendable () -> Int?
  /// Sends an event that does not re-enter.
  public let send: @Sendable () -> Void
  /// Subscribes a handler that does nothing; `nil` when the target is gone.
  public let subscribe: @Sendable () -> EventSubscription?

  public init(
    subscriberCount: @escaping @Sendable () -> Int?, send: @escaping @Sendable () -> Void,
    subscribe: @escaping @Sendable () -> EventSubscription?
  ) {
    self.subscriberCount = subscriberCount
    self.send = send
    self.subscribe = subscribe
  }
}

/// What the `deinit`s of ``ReenteringObject``s recorded, in the order they finished.
public final class ReentryJournal: Sendable {
  /// One finished `deinit`.
  public struct Record: Equatable, Sendable {
    public let name: String
    /// What it read from its target; `nil` if the target was gone.
    public let subscriberCount: Int?

    public init(name: String, subscriberCount: Int?) {
      self.name = name
      self.subscriberCount = subscriberCount
    }
  }

  private let records = LockedState<[Record]>([])

  public init() {}

  public func record(_ name: String, subscriberCount: Int?) {
    records.withLock { $0.append(Record(name: name, subscriberCount: subscriberCount)) }
  }

  public var all: [Record] { records.withLock { $0 } }
  /// The names, in the order the `deinit`s finished.
  public var names: [String] { all.map(\.name) }
  public var count: Int { records.withLock { $0.count } }
}

/// Keeps `objects` for the rest of the process. A test whose watchdog fired hands it what would call into the stuck
/// output when released (a token cancels its subscription, a re-entering object calls back), so that the test ends
/// instead of waiting for the lock the stuck thread holds.
public func abandon(_ objects: any Sendable...) {
  abandoned.withLock { $0.append(contentsOf: objects) }
}

private let abandoned = LockedState<[any Sendable]>([])
