import Broadcasters
import EventBus
import Logging
import Synchronization

/// The topics of one process: one LISTEN connection for all of them (a ``/Broadcasters/KeyedSource`` over
/// ``ListenUpstream``), and per topic a feed that turns committed ids into events read from the table, once per
/// process, in id order, for every client of the topic in this process.
///
/// A topic's feed connects with its first client and disconnects after its last; its LISTEN follows. At most ``limit``
/// topics are kept: when the table is full, the topics without clients are evicted, least recently used first, so
/// that a new topic always finds room unless every topic has a client.
public final class TopicFeeds: Sendable {
  /// The most topics a process keeps by default.
  public static let defaultLimit = 10_000

  /// The most topics the process keeps.
  public let limit: Int
  private let listens: KeyedSource<ListenUpstream>
  private let table = Mutex(Table())
  private let store: EventStore
  private let statistics: ServerStatistics
  private let logger: Logger
  private let onEviction: @Sendable (Int) -> Void

  private struct Table {
    var feeds: [TopicName: Entry] = [:]
    var clock: UInt64 = 0
  }

  private struct Entry {
    let feed: Broadcaster<TopicUpdate>
    let signals: Broadcaster<TopicSignal>
    var lastUsed: UInt64

    var isIdle: Bool {
      !feed.isConnected && feed.subscriberCount == 0 && !signals.isConnected && signals.subscriberCount == 0
    }
  }

  /// - Parameter onEviction: Called with the number of topics each eviction removed, with no lock held.
  public init(
    process: String, postgres: PostgresSettings, store: EventStore, statistics: ServerStatistics, logger: Logger,
    limit: Int = TopicFeeds.defaultLimit, onEviction: @escaping @Sendable (Int) -> Void = { _ in }
  ) {
    let upstream = ListenUpstream(
      configuration: postgres.configuration(applicationName: "live-updates \(process) listen"),
      statistics: statistics, logger: logger)
    listens = KeyedSource(
      upstream: upstream, backoff: ReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(2))
    ) { change in
      switch change {
      case .connected(let afterLoss): if afterLoss { statistics.update { $0.reconnects += 1 } }
      case .lost: statistics.update { $0.connectionLosses += 1 }
      case .attemptFailed: break
      }
      logger.info("LISTEN connection: \(change)")
    }
    self.limit = max(1, limit)
    self.store = store
    self.statistics = statistics
    self.logger = logger
    self.onEviction = onEviction
  }

  /// Subscribes `subscriber` to the feed of `topic`, made on first use; `nil` when ``limit`` topics all have clients.
  ///
  /// The look-up and the subscription happen under one lock, the one eviction takes: a feed found here is never
  /// evicted before its new subscriber makes it busy.
  public func subscribe(_ subscriber: TopicSubscriber, to topic: TopicName) -> ResponderSubscription? {
    let (subscription, evicted) = table.withLock { table -> (ResponderSubscription?, [Entry]) in
      table.clock += 1
      if var entry = table.feeds[topic] {
        entry.lastUsed = table.clock
        table.feeds[topic] = entry
        return (entry.feed.subscribe(subscriber), [])
      }
      let evicted = table.feeds.count >= limit ? evictIdle(&table) : []
      guard table.feeds.count < limit else { return (nil, evicted) }
      let (feed, signals) = makeFeed(for: topic)
      table.feeds[topic] = Entry(feed: feed, signals: signals, lastUsed: table.clock)
      return (feed.subscribe(subscriber), evicted)
    }
    if !evicted.isEmpty {
      logger.info("evicted idle topics", metadata: ["count": "\(evicted.count)", "limit": "\(limit)"])
      onEviction(evicted.count)
    }
    // The evicted feeds are released here, after unlocking.
    return subscription
  }

  /// How many topics the process keeps now.
  public var topicCount: Int {
    table.withLock { $0.feeds.count }
  }

  /// Whether `topic` is in the table now.
  public func keeps(_ topic: TopicName) -> Bool {
    table.withLock { $0.feeds[topic] != nil }
  }

  /// The LISTEN connection's state: its topics, losses and reconnects.
  public var listenStatistics: KeyedSourceStatistics {
    listens.statistics
  }

  private func makeFeed(for topic: TopicName) -> (Broadcaster<TopicUpdate>, Broadcaster<TopicSignal>) {
    let signals = listens.broadcaster(for: topic)
    signals.onDecodeFailure = { [statistics, logger] failure in
      statistics.update { $0.decodeFailures += 1 }
      logger.warning("dropped a notification, delivered to nobody: \(failure)")
    }
    return (Broadcaster(source: TopicFeedSource(topic: topic, signals: signals, store: store, logger: logger)), signals)
  }

  /// Evicts a tenth of the table (at least one topic), idle topics only, least recently used first; returns them.
  private func evictIdle(_ table: inout Table) -> [Entry] {
    let idle = table.feeds.filter { $0.value.isIdle }.sorted { $0.value.lastUsed < $1.value.lastUsed }
    var evicted: [Entry] = []
    for (topic, entry) in idle.prefix(max(1, limit / 10)) {
      table.feeds[topic] = nil
      listens.removeIdleBroadcaster(for: topic)
      evicted.append(entry)
    }
    return evicted
  }
}

/// A topic's feed in one process: subscribed to the topic's LISTEN signals while it has clients, it reads each
/// committed event from the table once and sends it on, in id order; when the LISTEN is (again) in place, it reads
/// what was committed meanwhile, then tells clients the last id, so that those who stand before it catch up.
///
/// A read that fails (PostgreSQL unreachable, or not answering within the store's deadline) is tried again after
/// ``retryDelay`` until it succeeds, the signals behind it waiting: the feed never stays behind a read that failed,
/// whether more events come or not.
struct TopicFeedSource: EventSource {
  /// How long the feed waits before it tries a failed read again.
  static let retryDelay = Duration.milliseconds(250)

  struct Connection: Sendable {
    let subscription: EventSubscription
    let reader: Task<Void, Never>
  }

  let topic: TopicName
  let signals: Broadcaster<TopicSignal>
  let store: EventStore
  let logger: Logger

  func start(emitting sink: EventSink<TopicUpdate>) -> Connection {
    let (stream, continuation) = AsyncStream.makeStream(of: TopicSignal.self)
    // The highest id notified so far: one read covers every id notified while the previous read ran, instead of one
    // read per notification queued behind it.
    let highestNotified = HighestID()
    let subscription = signals.subscribe { signal in
      if case .committed(let id) = signal { highestNotified.raise(to: id) }
      continuation.yield(signal)
    }
    let reader = Task { [topic, store, logger] in
      var lastRead: Int?
      for await signal in stream {
        while true {
          do {
            lastRead = try await Self.handle(
              signal, topic: topic, lastRead: lastRead, highestNotified: highestNotified.value, store: store,
              sink: sink)
            break
          } catch {
            logger.warning("could not read \(topic)'s events, trying again: \(describe(error))")
            // Cancelled: the feed stopped, and the loop over its stream ends at once.
            guard (try? await Task.sleep(for: Self.retryDelay)) != nil else { break }
          }
        }
      }
    }
    return Connection(subscription: subscription, reader: reader)
  }

  func stop(_ connection: Connection) {
    connection.subscription.cancel()
    connection.reader.cancel()
  }

  /// Acts on one signal; returns the last id read. On `listening`, reads what was committed since the last read, then
  /// sends a checkpoint with the last id; on `committed`, reads up to the highest id notified so far (one read for
  /// every id notified while the previous read ran). Before the first `listening` of a connection the feed does not
  /// know where it stands: the `listening` that follows covers the ids notified before it.
  private static func handle(
    _ signal: TopicSignal, topic: TopicName, lastRead: Int?, highestNotified: Int, store: EventStore,
    sink: EventSink<TopicUpdate>
  ) async throws -> Int? {
    switch signal {
    case .listening:
      let last = try await store.lastID(of: topic)
      var read = lastRead ?? last
      if read < last {
        read = try await send(topic, after: read, through: last, from: store, to: sink)
      }
      sink.send(.checkpoint(lastID: last))
      return max(read, last)
    case .committed:
      guard let from = lastRead, highestNotified > from else { return lastRead }
      return try await send(topic, after: from, through: highestNotified, from: store, to: sink)
    }
  }

  /// Reads the events of `topic` in `(from, last]` and sends them; returns the last id sent (`from` if none).
  private static func send(
    _ topic: TopicName, after from: Int, through last: Int, from store: EventStore, to sink: EventSink<TopicUpdate>
  ) async throws -> Int {
    var position = from
    while position < last {
      let rows = try await store.events(of: topic, after: position, through: last)
      guard let final = rows.last else { break }
      for row in rows {
        sink.send(.event(id: row.id, frame: TopicUpdate.frame(id: row.id, payload: row.payload)))
      }
      position = final.id
    }
    return max(position, from)
  }
}

/// The highest id seen, shared by the handler that sees ids and the reader that reads up to it.
final class HighestID: Sendable {
  private let highest = Mutex(0)

  func raise(to id: Int) {
    highest.withLock { $0 = max($0, id) }
  }

  var value: Int { highest.withLock { $0 } }
}
