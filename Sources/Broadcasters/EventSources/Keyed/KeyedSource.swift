import EventBus

/// Shares one upstream session among any number of keys, each with a ``Broadcaster`` of its own: a key is attached
/// (`LISTEN`, `SUBSCRIBE`) on its first subscriber and detached after its last; the session opens with the first key
/// and closes after the last.
///
/// Where a ``Broadcaster`` shares one upstream subscription among the subscribers of one source, a keyed source shares
/// one *connection* among many sources: a server process with a thousand topics holds one PostgreSQL `LISTEN`
/// connection, not a thousand. Connections grow with processes, never with keys or subscribers.
///
/// ```swift
/// let topics = KeyedSource(upstream: ListenUpstream(configuration: configuration))
/// let orders = topics.broadcaster(for: "orders")
/// let token = orders.subscribe { event in print(event) }   // the session opens, then LISTEN orders
/// token.cancel()                                          // UNLISTEN orders, then the session closes
/// ```
///
/// ## Sessions
/// One task drives the session, one step at a time and with no lock held: it opens the session, attaches each wanted
/// key, detaches each key whose last subscriber left, and closes the session once no key is wanted. The upstream
/// never sees two sessions at once, nor two steps at once. When the session is lost (``KeyedUpstream/waitForEnd(of:)``
/// returns), the source closes it, waits out ``ReconnectBackoff``, opens a new one and attaches every live key again;
/// only then does it report itself connected (`onChange` with ``UpstreamChange/connected(afterLoss:)``, and
/// ``KeyedSourceStatistics/isConnected``). Keys wanted or dropped meanwhile are attached or left out in the same pass.
///
/// Each attach hands the upstream a fresh ``EventSink`` for the key; it delivers to the key's subscribers until the
/// key's broadcaster disconnects, then ignores what it is sent. Events published while a key was not attached
/// (before its first attach, during a reconnect) are not replayed: an upstream that keeps history (a table, a
/// stream) lets subscribers catch up from it, and ``UpstreamChange/connected(afterLoss:)`` says when to.
///
/// ## Lifetime
/// The broadcaster of a key is made on first use and kept as long as the source, or until
/// ``removeIdleBroadcaster(for:)`` forgets it once it is idle. Subscribers do not keep the source alive; a source that
/// is released releases its broadcasters, whose keys are then detached.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class KeyedSource<Upstream: KeyedUpstream>: Sendable {
  /// The key type of the upstream.
  public typealias Key = Upstream.Key
  /// The event type of every key's broadcaster.
  public typealias Event = Upstream.Event

  private let storage: KeyedSourceStorage<Upstream>
  private let broadcasters = LockedState<[Key: Broadcaster<Event>]>([:])

  /// Creates a source over `upstream`. Nothing connects until a key gets its first subscriber.
  ///
  /// - Parameters:
  ///   - upstream: Opens sessions and attaches keys.
  ///   - backoff: How long to wait before a new session after a loss or a failed attempt.
  ///   - onChange: Called with each connection, loss and failed attempt, on the source's task, with no lock held.
  public init(
    upstream: Upstream,
    backoff: ReconnectBackoff = ReconnectBackoff(),
    onChange: (@Sendable (UpstreamChange) -> Void)? = nil
  ) {
    storage = KeyedSourceStorage(upstream: upstream, backoff: backoff, onChange: onChange)
  }

  /// The broadcaster of `key`: subscribe to it to receive the key's events. The same broadcaster for the same key.
  ///
  /// - Parameter key: The key.
  /// - Returns: The key's broadcaster, made on first use.
  /// - Complexity: O(1) on average.
  public func broadcaster(for key: Key) -> Broadcaster<Event> {
    if let existing = broadcasters.withLock({ $0[key] }) { return existing }
    // Made outside the lock; if another thread made one for the key meanwhile, that one wins and this one is released
    // here, after unlocking.
    let made = Broadcaster(source: KeySource(key: key, storage: storage))
    return broadcasters.withLock { broadcasters in
      if let existing = broadcasters[key] { return existing }
      broadcasters[key] = made
      return made
    }
  }

  /// Forgets the broadcaster of `key` if it has no subscriber and is not connected, so that a source over keys that
  /// come and go (topics its clients name) holds only those in use; a later ``broadcaster(for:)`` makes a new one.
  ///
  /// Nobody may subscribe to a forgotten broadcaster: its key would then have two. A caller that looks broadcasters up
  /// and subscribes under a lock of its own, and forgets them under the same lock, keeps that true.
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether the broadcaster was forgotten; `false` if it has subscribers, is still connected, or there is
  ///   none.
  @discardableResult
  public func removeIdleBroadcaster(for key: Key) -> Bool {
    let removed: Broadcaster<Event>? = broadcasters.withLock { broadcasters in
      guard let existing = broadcasters[key], !existing.isConnected, existing.subscriberCount == 0 else { return nil }
      broadcasters[key] = nil
      return existing
    }
    // Released here, after unlocking.
    return removed != nil
  }

  /// How many keys have a broadcaster.
  public var keyCount: Int {
    broadcasters.withLock { $0.count }
  }

  /// The session, the keys attached to it, and what happened so far.
  public var statistics: KeyedSourceStatistics {
    storage.statistics
  }
}

/// The source of one key's broadcaster: it wants the key while the broadcaster is connected.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
private struct KeySource<Upstream: KeyedUpstream>: EventSource {
  let key: Upstream.Key
  let storage: KeyedSourceStorage<Upstream>

  func start(emitting sink: EventSink<Upstream.Event>) -> UInt64 {
    storage.want(key, sink: sink)
  }

  func stop(_ generation: UInt64) {
    storage.unwant(key, generation: generation)
  }
}
