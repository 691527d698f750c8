import LiveUpdates
import Logging
import PostgresNIO
import Synchronization
import Testing

@Suite struct LimitsTests {
  @Test func aClientHoldsAtMostItsLimitOfConnectionsAndGetsThemBackAsTheyClose() {
    let limiter = ConnectionLimiter(limit: 2)
    #expect(limiter.acquire("alice"))
    #expect(limiter.acquire("alice"))
    #expect(!limiter.acquire("alice"))
    #expect(limiter.isFull("alice"))
    #expect(limiter.acquire("bob"))
    limiter.release("alice")
    #expect(limiter.acquire("alice"))
    limiter.release("alice")
    limiter.release("alice")
    limiter.release("bob")
    // Nothing is kept for clients without a socket.
    #expect(limiter.clientCount == 0)
  }

  @Test func publishingPassesInBurstsThenAtTheRateWithTheWaitToldWhenRefused() throws {
    let limiter = RateLimiter(rate: 10, burst: 3)
    let start = ContinuousClock.now
    for _ in 0..<3 {
      #expect(limiter.take("alice", now: start) == nil)
    }
    let wait = try #require(limiter.take("alice", now: start))
    #expect(wait > .milliseconds(90) && wait <= .milliseconds(100))
    // Another client has a bucket of its own.
    #expect(limiter.take("bob", now: start) == nil)
    // A tenth of a second later, one more.
    #expect(limiter.take("alice", now: start + .milliseconds(100)) == nil)
    #expect(limiter.take("alice", now: start + .milliseconds(100)) != nil)
  }

  @Test func bucketsThatRefilledAreDroppedSoTheTableDoesNotGrowWithClients() {
    let limiter = RateLimiter(rate: 100, burst: 1)
    let start = ContinuousClock.now
    for index in 0..<10_000 {
      _ = limiter.take("client-\(index)", now: start + .seconds(index))
    }
    #expect(limiter.bucketCount < 4096 + 1)
  }

  @Test func theConnectionDeadlinesAreReadFromTheOptionsAndListedInTheUsage() throws {
    let defaults = ServerLimits()
    #expect(defaults.requestHeadTimeout == .seconds(10))
    #expect(defaults.idleTimeout == .seconds(60))
    let options = try ServerOptions.parse(["--request-head-timeout-ms", "2500", "--idle-timeout-ms", "7000"])
    #expect(options.limits.connection.requestHeadTimeout == .milliseconds(2500))
    #expect(options.limits.connection.idleTimeout == .seconds(7))
    #expect(options.limits.connection.maximumBodySize == TopicEvent.maximumPayloadSize)
    #expect(throws: ServerOptions.ArgumentError.self) { try ServerOptions.parse(["--idle-timeout-ms", "0"]) }
    for option in ["--request-head-timeout-ms", "--idle-timeout-ms"] {
      #expect(ServerOptions.usage.contains(option))
    }
  }

  @Test func theLimitsAreReadFromTheOptionsAndListedInTheUsage() throws {
    let options = try ServerOptions.parse([
      "--max-topics", "500", "--max-connections-per-client", "3", "--publish-rate", "7", "--publish-burst", "9",
    ])
    #expect(options.limits.topics == 500)
    #expect(options.limits.connectionsPerClient == 3)
    #expect(options.limits.publishRate == 7)
    #expect(options.limits.publishBurst == 9)
    #expect(throws: ServerOptions.ArgumentError.self) { try ServerOptions.parse(["--max-topics", "0"]) }
    for option in ["--max-topics", "--max-connections-per-client", "--publish-rate", "--publish-burst"] {
      #expect(ServerOptions.usage.contains(option))
    }
  }

  @Test func idleTopicsAreEvictedLeastRecentlyUsedFirstSoANewTopicAlwaysFindsRoom() async throws {
    let evictions = Counted()
    let feeds = Self.feeds(limit: 10) { evictions.add($0) }
    for index in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0] {
      let subscription = feeds.subscribe(TopicSubscriber(), to: try #require(TopicName("old-\(index)")))
      #expect(subscription != nil)
      subscription?.cancel()
    }
    #expect(feeds.topicCount == 10)
    // old-1 is the least recently used: old-0 was used again after it.
    _ = feeds.subscribe(TopicSubscriber(), to: try #require(TopicName("new")))?.cancel()
    #expect(try !feeds.keeps(#require(TopicName("old-1"))))
    #expect(try feeds.keeps(#require(TopicName("old-0"))))
    for index in 0..<100 {
      let subscriber = TopicSubscriber()
      let subscription = feeds.subscribe(subscriber, to: try #require(TopicName("new-\(index)")))
      #expect(subscription != nil)
      subscription?.cancel()
      #expect(feeds.topicCount <= 10)
    }
    #expect(evictions.total == 101)
  }

  @Test func topicsWithClientsAreNeverEvicted() throws {
    let feeds = Self.feeds(limit: 2) { _ in }
    let first = TopicSubscriber()
    let second = TopicSubscriber()
    let kept = [
      feeds.subscribe(first, to: try #require(TopicName("a"))),
      feeds.subscribe(second, to: try #require(TopicName("b"))),
    ]
    #expect(feeds.subscribe(TopicSubscriber(), to: try #require(TopicName("c"))) == nil)
    kept[0]?.cancel()
    let third = TopicSubscriber()
    let subscription = feeds.subscribe(third, to: try #require(TopicName("c")))
    #expect(subscription != nil)
    #expect(feeds.subscribe(TopicSubscriber(), to: try #require(TopicName("a"))) == nil)
    subscription?.cancel()
    kept[1]?.cancel()
    withExtendedLifetime((first, second, third)) {}
  }

  /// Feeds over a PostgreSQL that is not there: eviction needs no events.
  static func feeds(limit: Int, onEviction: @escaping @Sendable (Int) -> Void) -> TopicFeeds {
    var postgres = PostgresSettings()
    postgres.port = 1
    let logger = Logger(label: "test")
    let client = PostgresClient(
      configuration: .init(host: "127.0.0.1", port: 1, username: "nobody", password: nil, database: nil, tls: .disable),
      backgroundLogger: logger)
    return TopicFeeds(
      process: "test", postgres: postgres, store: EventStore(client: client, logger: logger),
      statistics: ServerStatistics(process: "test"), logger: logger, limit: limit, onEviction: onEviction)
  }
}

private final class Counted: Sendable {
  private let count = Mutex(0)
  func add(_ value: Int) { count.withLock { $0 += value } }
  var total: Int { count.withLock { $0 } }
}
