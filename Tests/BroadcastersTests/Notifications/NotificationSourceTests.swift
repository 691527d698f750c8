import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

/// Each test posts to a `NotificationCenter` of its own, so tests running in parallel never see each other's posts.
@Suite struct NotificationSourceTests {
  private static let ping = Notification.Name("NotificationSourceTests.ping")
  private static let pong = Notification.Name("NotificationSourceTests.pong")

  /// A source decoding the `"value"` of a notification's `userInfo`, counting its decodes.
  private static func valueSource(
    center: NotificationCenter,
    names: [Notification.Name] = [ping],
    object: AnyObject? = nil,
    decodes: Counter
  ) -> NotificationSource<Int> {
    NotificationSource(names: names, center: center, object: object) { notification in
      decodes.increment()
      guard let value = notification.userInfo?["value"] else {
        throw DecodeFailure(key: "value", reason: .missingKey)
      }
      guard let int = value as? Int else {
        throw DecodeFailure(key: "value", reason: .wrongType(expected: "Int", found: "\(type(of: value))"))
      }
      return int
    }
  }

  @Test func decodesOncePerNotificationWhateverTheNumberOfSubscribers() {
    let center = NotificationCenter()
    let decodes = Counter()
    let broadcaster = Broadcaster(source: Self.valueSource(center: center, decodes: decodes))
    let recorders = (0..<100).map { _ in Recorder<Int>() }
    for recorder in recorders {
      broadcaster.subscribe(recorder)
    }
    for value in 1...3 {
      center.post(name: Self.ping, object: nil, userInfo: ["value": value])
    }
    #expect(decodes.count == 3)
    #expect(broadcaster.upstreamEventCount == 3)
    #expect(recorders.allSatisfy { $0.events == [1, 2, 3] })
  }

  @Test func holdsOneObserverPerNameWhileConnectedAndNoneAfter() {
    let center = NotificationCenter()
    let decodes = Counter()
    let source = Self.valueSource(center: center, names: [Self.ping, Self.pong, Self.ping], decodes: decodes)
    let broadcaster = Broadcaster(source: source)
    #expect(source.names == [Self.ping, Self.pong])
    #expect(source.observerCount == 0)
    center.post(name: Self.ping, object: nil, userInfo: ["value": 0])
    #expect(decodes.count == 0)  // nobody listens, nothing observes

    let log = Log<Int>()
    let tokens = (0..<10).map { _ in broadcaster.subscribe { log.append($0) } }
    #expect(source.observerCount == 2)
    center.post(name: Self.ping, object: nil, userInfo: ["value": 1])
    center.post(name: Self.pong, object: nil, userInfo: ["value": 2])
    #expect(decodes.count == 2)
    #expect(log.count == 20)

    for token in tokens {
      token.cancel()
    }
    #expect(source.observerCount == 0)
    #expect(broadcaster.disconnectCount == 1)
    center.post(name: Self.ping, object: nil, userInfo: ["value": 3])
    #expect(decodes.count == 2)
  }

  @Test func anObjectFilterDeliversOnlyThatSendersNotifications() {
    final class Sender: Sendable {}
    let center = NotificationCenter()
    let sender = Sender()
    let broadcaster = Broadcaster(source: Self.valueSource(center: center, object: sender, decodes: Counter()))
    let recorder = Recorder<Int>()
    broadcaster.subscribe(recorder)
    center.post(name: Self.ping, object: Sender(), userInfo: ["value": 1])
    center.post(name: Self.ping, object: nil, userInfo: ["value": 2])
    center.post(name: Self.ping, object: sender, userInfo: ["value": 3])
    #expect(recorder.events == [3])
  }

  @Test func aThrowingDecodeIsCountedAndReportedWithTheNameAndLaterNotificationsArrive() {
    let center = NotificationCenter()
    let broadcaster = Broadcaster(source: Self.valueSource(center: center, decodes: Counter()))
    let failures = Log<DecodeFailure>()
    broadcaster.onDecodeFailure = { failures.append($0) }
    let recorder = Recorder<Int>()
    broadcaster.subscribe(recorder)

    center.post(name: Self.ping, object: nil, userInfo: [:])
    center.post(name: Self.ping, object: nil, userInfo: ["value": "seven"])
    center.post(name: Self.ping, object: nil, userInfo: ["value": 7])

    #expect(recorder.events == [7])
    #expect(broadcaster.decodeFailureCount == 2)
    #expect(
      failures.elements == [
        DecodeFailure(name: Self.ping.rawValue, key: "value", reason: .missingKey),
        DecodeFailure(name: Self.ping.rawValue, key: "value", reason: .wrongType(expected: "Int", found: "String")),
      ])
  }

  @Test func anErrorThatIsNotADecodeFailureIsReportedWithItsDescription() {
    struct Unreadable: Error, CustomStringConvertible {
      var description: String { "unreadable payload" }
    }
    let center = NotificationCenter()
    let broadcaster = Broadcaster(
      source: NotificationSource<Int>(names: [Self.ping], center: center) { _ in throw Unreadable() })
    let failures = Log<DecodeFailure>()
    broadcaster.onDecodeFailure = { failures.append($0) }
    let token = broadcaster.subscribe { _ in }
    center.post(name: Self.ping, object: nil)
    #expect(failures.elements == [DecodeFailure(name: Self.ping.rawValue, reason: .other("unreadable payload"))])
    token.cancel()
  }

  @Test func postsFromEightThreadsReachEverySubscriberOnceAndInTheSameOrder() async {
    let center = NotificationCenter()
    let decodes = Counter()
    let broadcaster = Broadcaster(source: Self.valueSource(center: center, decodes: decodes))
    let recorders = (0..<50).map { _ in Recorder<Int>() }
    for recorder in recorders {
      broadcaster.subscribe(recorder)
    }
    let perThread = scaled(500)
    let finished = await runConcurrently(threads: 8) { index in
      for value in 0..<perThread {
        center.post(name: Self.ping, object: nil, userInfo: ["value": index * perThread + value])
      }
    }
    guard finished else { return }
    #expect(decodes.count == 8 * perThread)
    let first = recorders[0].events
    #expect(Set(first) == Set(0..<8 * perThread))
    #expect(recorders.allSatisfy { $0.events == first })
  }

  @Test func aReleasedBroadcasterRemovesItsSourcesObserversAndFreesEverything() {
    struct ReleasedNotificationEvent: Sendable {}
    let center = NotificationCenter()
    let decodes = Counter()
    let recorder = Recorder<ReleasedNotificationEvent>()
    let source = NotificationSource(names: [Self.ping, Self.pong], center: center) { _ in
      decodes.increment()
      return ReleasedNotificationEvent()
    }
    weak var weakBroadcaster: Broadcaster<ReleasedNotificationEvent>?
    do {
      let broadcaster = Broadcaster(source: source)
      weakBroadcaster = broadcaster
      broadcaster.subscribe(recorder)
      center.post(name: Self.ping, object: nil)
      #expect(source.observerCount == 2)
    }
    #expect(weakBroadcaster == nil)
    #expect(source.observerCount == 0)
    center.post(name: Self.ping, object: nil)
    center.post(name: Self.pong, object: nil)
    #expect(decodes.count == 1)
    #expect(recorder.events.count == 1)
    #expect(LiveObjects.total(for: ReleasedNotificationEvent.self) == 0)
  }
}
