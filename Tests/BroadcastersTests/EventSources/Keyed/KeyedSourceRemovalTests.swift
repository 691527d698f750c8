import Broadcasters
import EventBus
import Foundation
import Testing

@Suite struct KeyedSourceRemovalTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static let fast = ReconnectBackoff(initial: .milliseconds(1), maximum: .milliseconds(20), jitter: 0)

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func anIdleBroadcasterIsForgottenAndItsKeyServedAgainByANewOne() async {
    let upstream = TestKeyedUpstream()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let first = source.broadcaster(for: "a")
    let token = first.subscribe { _ in }
    #expect(await eventually { upstream.attachedKeys == ["a"] })
    #expect(!source.removeIdleBroadcaster(for: "a"))
    #expect(source.keyCount == 1)
    token.cancel()
    #expect(await eventually { !first.isConnected && upstream.attachedKeys.isEmpty })
    #expect(source.removeIdleBroadcaster(for: "a"))
    #expect(source.keyCount == 0)
    #expect(!source.removeIdleBroadcaster(for: "a"))
    #expect(!source.removeIdleBroadcaster(for: "never"))

    let second = source.broadcaster(for: "a")
    #expect(second !== first)
    let recorder = Recorder<Int>()
    second.subscribe(recorder)
    #expect(await eventually { upstream.attachedKeys == ["a"] })
    #expect(upstream.publish(7, to: "a"))
    #expect(recorder.events == [7])
    withExtendedLifetime(recorder) {}
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func forgettingEveryIdleKeyLeavesOnlyTheKeysInUse() async {
    let upstream = TestKeyedUpstream()
    let source = KeyedSource(upstream: upstream, backoff: Self.fast)
    let kept = source.broadcaster(for: "kept").subscribe { _ in }
    for index in 0..<100 {
      source.broadcaster(for: "short-\(index)").subscribe { _ in }.cancel()
    }
    #expect(await eventually { upstream.attachedKeys == ["kept"] })
    #expect(await eventually { (0..<100).allSatisfy { !source.broadcaster(for: "short-\($0)").isConnected } })
    var forgotten = 0
    for index in 0..<100 where source.removeIdleBroadcaster(for: "short-\(index)") {
      forgotten += 1
    }
    #expect(forgotten == 100)
    #expect(!source.removeIdleBroadcaster(for: "kept"))
    #expect(source.keyCount == 1)
    kept.cancel()
  }
}
