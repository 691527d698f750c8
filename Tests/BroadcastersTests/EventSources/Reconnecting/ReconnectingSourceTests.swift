import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

@Suite struct ReconnectingSourceTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static let fast = ReconnectBackoff(initial: .milliseconds(1), maximum: .milliseconds(20), jitter: 0)

  /// A source whose sessions subscribe to `upstream`, connect, and forward what it publishes; what each session
  /// was told about a preceding loss goes to `followedLoss`.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static func source(
    over upstream: TestUpstream<Int>,
    backoff: ReconnectBackoff = fast,
    changes: Log<String>? = nil,
    followedLoss: Log<Bool>? = nil
  ) -> ReconnectingSource<Int> {
    let record: @Sendable (UpstreamChange) -> Void = { changes?.append("\($0)") }
    return ReconnectingSource(backoff: backoff, onChange: record) { session in
      followedLoss?.append(session.followsLoss)
      let subscription = upstream.subscribe()
      session.connected()
      try await session.sink.send(contentsOf: subscription) { $0 }
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aLostConnectionIsCountedAndTheNextSessionResumesDeliveryAndKnowsItFollowsALoss() async {
    let upstream = TestUpstream<Int>()
    let changes = Log<String>()
    let followedLoss = Log<Bool>()
    let source = Self.source(over: upstream, changes: changes, followedLoss: followedLoss)
    let values = Broadcaster(source: source)
    let logs = (0..<5).map { _ in Log<Int>() }
    let tokens = logs.map { log in values.subscribe { log.append($0) } }
    #expect(await eventually { source.statistics.isConnected })
    upstream.publish(1)
    #expect(await eventually { logs.allSatisfy { $0.count == 1 } })
    upstream.drop()
    #expect(await eventually { source.statistics.connectCount == 2 && source.statistics.isConnected })
    upstream.publish(2)
    #expect(await eventually { logs.allSatisfy { $0.count == 2 } })
    #expect(logs.allSatisfy { $0.elements == [1, 2] })
    var expected = ReconnectStatistics()
    expected.isConnected = true
    expected.connectCount = 2
    expected.lossCount = 1
    expected.reconnectCount = 1
    #expect(source.statistics == expected)
    #expect(followedLoss.elements == [false, true])
    #expect(
      changes.elements == [
        "connected",
        "connection lost (dropped by the test); reconnecting in 0.001 seconds",
        "connected again; events sent while disconnected were missed",
      ])
    #expect(values.connectCount == 1)
    #expect(upstream.maxLiveCount == 1)
    for token in tokens {
      token.cancel()
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func sessionsThatEndBeforeConnectingAreFailedAttemptsWithGrowingWaits() async {
    struct Refused: Error, CustomStringConvertible {
      var description: String { "refused" }
    }
    let attempts = Counter()
    let changes = Log<UpstreamChange>()
    let backoff = ReconnectBackoff(initial: .milliseconds(1), maximum: .milliseconds(6), jitter: 0)
    let record: @Sendable (UpstreamChange) -> Void = { changes.append($0) }
    let source = ReconnectingSource<Int>(backoff: backoff, onChange: record) { session in
      attempts.increment()
      guard attempts.count > 4 else { throw Refused() }
      session.connected()
      try await Task.sleep(for: .seconds(3600))
    }
    let values = Broadcaster(source: source)
    let token = values.subscribe { _ in }
    // A session reports its change after it is counted as connected: wait for the report too.
    #expect(await eventually { source.statistics.isConnected && changes.count >= 5 })
    #expect(source.statistics.failedAttemptCount == 4)
    #expect(source.statistics.lossCount == 0)
    #expect(source.statistics.connectCount == 1)
    #expect(
      changes.elements.map(\.retryDelay) == [
        .milliseconds(2), .milliseconds(4), .milliseconds(6), .milliseconds(6), nil,
      ])
    #expect(
      changes.elements.map(\.description).first == "connection attempt failed (refused); retrying in 0.002 seconds")
    token.cancel()
    #expect(await eventually { !source.statistics.isConnected })
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theLastSubscriberLeavingEndsTheSessionWithoutCountingALoss() async {
    let upstream = TestUpstream<Int>()
    let source = Self.source(over: upstream)
    let values = Broadcaster(source: source)
    for round in 1...10 {
      let token = values.subscribe { _ in }
      #expect(await eventually { source.statistics.isConnected && upstream.liveCount == 1 })
      token.cancel()
      #expect(await eventually { !source.statistics.isConnected && upstream.liveCount == 0 })
      #expect(source.statistics.connectCount == round)
    }
    #expect(source.statistics.lossCount == 0)
    #expect(source.statistics.failedAttemptCount == 0)
    #expect(upstream.maxLiveCount == 1)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func sessionsNeverOverlapUnderRapidSubscribeAndCancel() async {
    let upstream = TestUpstream<Int>()
    let source = Self.source(over: upstream)
    let values = Broadcaster(source: source)
    let finished = await runConcurrently(threads: 4) { _ in
      for _ in 0..<scaled(200) {
        values.subscribe { _ in }.cancel()
      }
    }
    #expect(finished)
    #expect(values.connectCount == values.disconnectCount)
    let token = values.subscribe { _ in }
    #expect(await eventually { source.statistics.isConnected && upstream.liveCount == 1 })
    token.cancel()
    #expect(await eventually { upstream.liveCount == 0 })
    #expect(upstream.maxLiveCount == 1)
    #expect(source.statistics.lossCount == 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aReconnectOfTheBroadcasterAfterALossIsNotReportedAsFollowingIt() async {
    let upstream = TestUpstream<Int>()
    let followedLoss = Log<Bool>()
    // A long first wait: the subscriber leaves during it.
    let backoff = ReconnectBackoff(initial: .seconds(3600), jitter: 0)
    let source = Self.source(over: upstream, backoff: backoff, followedLoss: followedLoss)
    let values = Broadcaster(source: source)
    let first = values.subscribe { _ in }
    #expect(await eventually { source.statistics.isConnected })
    upstream.drop()
    #expect(await eventually { source.statistics.lossCount == 1 })
    first.cancel()
    let log = Log<Int>()
    let second = values.subscribe { log.append($0) }
    #expect(await eventually { source.statistics.connectCount == 2 && source.statistics.isConnected })
    upstream.publish(7)
    #expect(await eventually { log.count == 1 })
    #expect(followedLoss.elements == [false, false])
    #expect(source.statistics.reconnectCount == 0)
    second.cancel()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aReleasedBroadcasterEndsItsSessionAndFreesEverything() async {
    struct StreamedEvent: Sendable {}
    let ended = Counter()
    let recorder = Recorder<StreamedEvent>()
    weak var weakBroadcaster: Broadcaster<StreamedEvent>?
    do {
      let source = ReconnectingSource<StreamedEvent> { session in
        defer { ended.increment() }
        session.connected()
        session.sink.send(StreamedEvent())
        try await Task.sleep(for: .seconds(3600))
      }
      let broadcaster = Broadcaster(source: source)
      weakBroadcaster = broadcaster
      broadcaster.subscribe(recorder)
      #expect(await eventually { recorder.events.count == 1 })
    }
    #expect(weakBroadcaster == nil)
    #expect(await eventually { ended.count == 1 })
    #expect(await eventually { LiveObjects.total(for: StreamedEvent.self) == 0 })
  }
}
