import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

@Suite struct KeyedSourceTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static let fast = ReconnectBackoff(initial: .milliseconds(1), maximum: .milliseconds(20), jitter: 0)

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func oneSessionCarriesEveryKeyAttachedOnItsFirstSubscriberAndDetachedAfterItsLast() async {
    let upstream = TestKeyedUpstream()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let first = source.broadcaster(for: "a").subscribe { _ in }
    #expect(await eventually { source.statistics.isConnected })
    let second = source.broadcaster(for: "b").subscribe { _ in }
    let third = source.broadcaster(for: "b").subscribe { _ in }
    #expect(await eventually { upstream.attachedKeys == ["a", "b"] })
    third.cancel()
    // The second subscriber of "b" is still there: nothing is detached.
    #expect(await eventually { source.statistics.attachedKeys == 2 })
    #expect(upstream.history == ["open 1", "attach a", "attach b"])
    second.cancel()
    #expect(await eventually { upstream.history.last == "detach b" })
    first.cancel()
    #expect(await eventually { upstream.openSessions == 0 })
    #expect(upstream.history == ["open 1", "attach a", "attach b", "detach b", "detach a", "close 1"])
    #expect(source.broadcaster(for: "a") === source.broadcaster(for: "a"))
    #expect(source.keyCount == 2)
    let statistics = source.statistics
    #expect(statistics.connectCount == 1)
    #expect(statistics.attachCount == 2)
    #expect(statistics.detachCount == 2)
    #expect(statistics.openSessions == 0)
    #expect(!statistics.isConnected)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func eachKeysEventsReachOnlyThatKeysSubscribers() async {
    let upstream = TestKeyedUpstream()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let recorderA = Recorder<Int>()
    let recorderB = Recorder<Int>()
    source.broadcaster(for: "a").subscribe(recorderA)
    source.broadcaster(for: "b").subscribe(recorderB)
    #expect(await eventually { upstream.attachedKeys == ["a", "b"] })
    #expect(upstream.publish(1, to: "a"))
    #expect(upstream.publish(2, to: "b"))
    #expect(upstream.publish(3, to: "a"))
    #expect(!upstream.publish(4, to: "c"))
    #expect(recorderA.events == [1, 3])
    #expect(recorderB.events == [2])
    #expect(source.broadcaster(for: "a").upstreamEventCount == 2)
    withExtendedLifetime((recorderA, recorderB)) {}
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func afterALossEveryLiveKeyIsAttachedAgainBeforeTheSourceReportsItselfConnected() async {
    let upstream = TestKeyedUpstream(stepDelay: .milliseconds(2))
    let attachedWhenConnected = Log<Set<String>>()
    let changes = Log<String>()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast) { change in
      changes.append("\(change)")
      if case .connected = change { attachedWhenConnected.append(upstream.attachedKeys) }
    }
    let keys = (0..<20).map { "key-\($0)" }
    let tokens = keys.map { source.broadcaster(for: $0).subscribe { _ in } }
    // The report, not the count, and every key: the count is visible before the report runs, and a drop in between
    // would empty the keys the report reads; on a busy machine the first report can come before the last subscribe.
    #expect(await eventually { attachedWhenConnected.count == 1 && upstream.attachedKeys == Set(keys) })
    #expect(source.statistics.connectCount == 1)
    upstream.dropSession()
    #expect(await eventually { attachedWhenConnected.count == 2 })
    #expect(source.statistics.connectCount == 2)
    // The first report came once the keys wanted then were attached; the one after the loss, once all of them were
    // attached again.
    let first = attachedWhenConnected.elements.first ?? []
    #expect(!first.isEmpty && first.isSubset(of: Set(keys)), "\(first)")
    #expect(attachedWhenConnected.elements.last == Set(keys))
    let statistics = source.statistics
    #expect(statistics.lossCount == 1)
    #expect(statistics.reconnectCount == 1)
    #expect(statistics.attachCount == 40)
    #expect(statistics.detachCount == 0)
    #expect(changes.elements.first == "connected")
    #expect(changes.elements.dropFirst().first?.hasPrefix("connection lost; reconnecting in") == true)
    #expect(changes.elements.last == "connected again; events sent while disconnected were missed")
    // The lost session is closed before the next one opens.
    let history = upstream.history
    let drop = history.firstIndex(of: "drop 1") ?? history.endIndex
    #expect(history[drop...].prefix(3) == ["drop 1", "close 1", "open 2"])
    #expect(upstream.publish(7, to: "key-3"))
    for token in tokens { token.cancel() }
    #expect(await eventually { upstream.openSessions == 0 })
    #expect(upstream.maxOpenSessions == 1)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func keysWantedOrDroppedDuringAReconnectAreAttachedOrLeftOutOnTheNewSession() async {
    let upstream = TestKeyedUpstream()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let tokenA = source.broadcaster(for: "a").subscribe { _ in }
    let tokenB = source.broadcaster(for: "b").subscribe { _ in }
    #expect(await eventually { source.statistics.isConnected && source.statistics.attachedKeys == 2 })
    upstream.setReachable(false)
    upstream.dropSession()
    #expect(await eventually { source.statistics.failedAttemptCount >= 2 })
    let recorderC = Recorder<Int>()
    source.broadcaster(for: "c").subscribe(recorderC)
    tokenA.cancel()
    #expect(!source.statistics.isConnected)
    upstream.setReachable(true)
    #expect(await eventually { source.statistics.isConnected })
    #expect(upstream.attachedKeys == ["b", "c"])
    let history = upstream.history
    let reopened = history.lastIndex(of: "open 2") ?? history.endIndex
    #expect(Set(history[reopened...].dropFirst()) == ["attach b", "attach c"])
    #expect(upstream.publish(5, to: "c"))
    #expect(recorderC.events == [5])
    #expect(source.statistics.reconnectCount == 1)
    tokenB.cancel()
    source.broadcaster(for: "c").pruneDeadSubscribers()
    withExtendedLifetime(recorderC) {}
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aSessionThatFailsWhileKeysChangeIsClosedAndReplacedWithEveryLiveKey() async {
    let upstream = TestKeyedUpstream()
    let changes = Log<String>()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast) { changes.append("\($0)") }
    let tokenA = source.broadcaster(for: "a").subscribe { _ in }
    #expect(await eventually { source.statistics.isConnected })
    upstream.failNextAttach(of: "x")
    let tokenX = source.broadcaster(for: "x").subscribe { _ in }
    let tokenY = source.broadcaster(for: "y").subscribe { _ in }
    #expect(await eventually { source.statistics.connectCount == 2 })
    #expect(upstream.attachedKeys == ["a", "x", "y"])
    #expect(upstream.history.contains("attach x failed"))
    #expect(upstream.history.contains("close 1"))
    #expect(source.statistics.lossCount == 1)
    #expect(changes.elements.contains { $0.hasPrefix("connection lost (unreachable)") })
    for token in [tokenA, tokenX, tokenY] { token.cancel() }
    #expect(await eventually { upstream.openSessions == 0 })
    #expect(upstream.maxOpenSessions == 1)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func anUnreachableUpstreamIsRetriedWithGrowingWaitsUntilItAnswers() async {
    let upstream = TestKeyedUpstream()
    upstream.setReachable(false)
    let changes = Log<UpstreamChange>()
    let backoff = ReconnectBackoff(initial: .milliseconds(1), maximum: .milliseconds(4), jitter: 0)
    let source = KeyedSource(upstream: upstream, backoff: backoff) { changes.append($0) }
    let token = source.broadcaster(for: "a").subscribe { _ in }
    #expect(await eventually { changes.count >= 4 })
    upstream.setReachable(true)
    #expect(await eventually { source.statistics.isConnected })
    #expect(await eventually { changes.elements.last?.retryDelay == nil })
    #expect(changes.elements.prefix(3).map(\.retryDelay) == [.milliseconds(2), .milliseconds(4), .milliseconds(4)])
    #expect(source.statistics.connectCount == 1)
    #expect(source.statistics.reconnectCount == 0)
    token.cancel()
    #expect(await eventually { upstream.openSessions == 0 })
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aKeyDroppedAndWantedAgainBeforeItsDetachGetsItsNewSubscribersSink() async {
    let upstream = TestKeyedUpstream(stepDelay: .milliseconds(5))
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let keep = source.broadcaster(for: "keep").subscribe { _ in }
    #expect(await eventually { source.statistics.isConnected })
    let recorder = Recorder<Int>()
    for _ in 0..<20 {
      source.broadcaster(for: "a").subscribe { _ in }.cancel()
    }
    source.broadcaster(for: "a").subscribe(recorder)
    #expect(await eventually { upstream.attachedKeys == ["keep", "a"] && source.statistics.attachedKeys == 2 })
    #expect(await eventually { upstream.publish(9, to: "a") && recorder.events == [9] })
    keep.cancel()
    withExtendedLifetime(recorder) {}
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func churnFromManyThreadsNeverOpensTwoSessionsAndEndsWithExactlyTheHeldKeysAttached() async {
    let upstream = TestKeyedUpstream()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let keys = (0..<16).map { "key-\($0)" }
    let broadcasters = keys.map { source.broadcaster(for: $0) }
    // Held through the churn: key-0 and key-1 stay wanted whatever the threads do.
    let held = [broadcasters[0].subscribe { _ in }, broadcasters[1].subscribe { _ in }]
    let subscribes = Counter()
    let iterations = scaled(2_000)
    let finished = await runConcurrently(threads: 8) { thread in
      var generator = SystemRandomNumberGenerator()
      for iteration in 0..<iterations {
        let broadcaster = broadcasters[(thread * 7 + iteration + Int.random(in: 0..<3, using: &generator)) % 16]
        let token = broadcaster.subscribe { _ in }
        subscribes.increment()
        if iteration % 5 == 0 { upstream.publish(iteration, to: keys[iteration % 16]) }
        token.cancel()
      }
    }
    #expect(finished)
    #expect(subscribes.count == 8 * iterations)
    #expect(await eventually { source.statistics.isConnected && upstream.attachedKeys == ["key-0", "key-1"] })
    #expect(await eventually { source.statistics.attachedKeys == 2 })
    for (index, broadcaster) in broadcasters.enumerated() {
      #expect(broadcaster.isConnected == (index < 2))
      #expect(broadcaster.connectCount - broadcaster.disconnectCount == (index < 2 ? 1 : 0))
    }
    let statistics = source.statistics
    #expect(statistics.attachCount - statistics.detachCount == 2)
    #expect(upstream.maxOpenSessions == 1)
    #expect(upstream.maxStepsRunning == 1)
    for token in held { token.cancel() }
    #expect(await eventually { upstream.openSessions == 0 && !source.statistics.isConnected })
    #expect(source.statistics.connectCount == upstream.history.count { $0.hasPrefix("open") })
    #expect(upstream.history.count { $0.hasPrefix("open") } == upstream.history.count { $0.hasPrefix("close") })
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func churnWhileTheSessionKeepsDroppingEndsConnectedWithEveryHeldKey() async {
    let upstream = TestKeyedUpstream()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let keys = (0..<8).map { "key-\($0)" }
    let broadcasters = keys.map { source.broadcaster(for: $0) }
    let held = broadcasters[0].subscribe { _ in }
    let iterations = scaled(500)
    let finished = await runConcurrently(threads: 4) { thread in
      for iteration in 0..<iterations {
        if thread == 0 {
          // Each drop waits (a bounded while) for a connected session, so that it is a loss and not a failed attempt.
          if iteration % 50 == 0 {
            let deadline = Date().addingTimeInterval(5)
            while !source.statistics.isConnected && Date() < deadline { usleep(100) }
            upstream.dropSession()
          }
          continue
        }
        broadcasters[1 + (thread + iteration) % 7].subscribe { _ in }.cancel()
      }
    }
    #expect(finished)
    #expect(await eventually { source.statistics.isConnected && upstream.attachedKeys == ["key-0"] })
    #expect(source.statistics.lossCount >= 1)
    #expect(upstream.maxOpenSessions == 1)
    #expect(upstream.maxStepsRunning == 1)
    held.cancel()
    #expect(await eventually { upstream.openSessions == 0 })
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func releasingTheSourceDetachesItsKeysAndClosesTheSession() async {
    let upstream = TestKeyedUpstream()
    var source: KeyedSource<TestKeyedUpstream>? = KeyedSource(upstream: upstream, backoff: Self.fast)
    let recorder = Recorder<Int>()
    source?.broadcaster(for: "a").subscribe(recorder)
    #expect(await eventually { source?.statistics.isConnected == true })
    weak let weakSource = source
    source = nil
    #expect(weakSource == nil)
    #expect(await eventually { upstream.openSessions == 0 })
    #expect(upstream.history == ["open 1", "attach a", "detach a", "close 1"])
    withExtendedLifetime(recorder) {}
  }
}
