import Broadcasters
import CombineBridges
import EventBus
import OpenCombine
import Testing

/// `PublisherSource`, compiled from the same file as on Apple platforms, against OpenCombine.
@Suite struct PublisherSourceTests {
  struct Reachability: Sendable, Equatable {
    var isOnline: Bool
  }

  struct Offline: Error {}

  /// Counts the Combine subscriptions made to and cancelled on the subject.
  final class Upstream {
    let subject = PassthroughSubject<Reachability, Offline>()
    let subscriptions = Log<String>()

    var publisher: AnyPublisher<Reachability, Offline> {
      subject
        .handleEvents(
          receiveSubscription: { [subscriptions] _ in subscriptions.append("subscribe") },
          receiveCancel: { [subscriptions] in subscriptions.append("cancel") }
        )
        .eraseToAnyPublisher()
    }
  }

  final class Screen: EventResponder, Sendable {
    let received = Log<Reachability>()
    func handle(event: Reachability) { received.append(event) }
  }

  @Test func everyResponderSharesOneCombineSubscription() {
    let upstream = Upstream()
    let reachability = Broadcaster(source: PublisherSource { upstream.publisher })
    var screens: [Screen]? = (1...3).map { _ in Screen() }
    for screen in screens! { reachability.subscribe(screen) }
    #expect(upstream.subscriptions.elements == ["subscribe"])

    upstream.subject.send(Reachability(isOnline: false))
    for screen in screens! {
      #expect(screen.received.elements == [Reachability(isOnline: false)])
    }
    #expect(reachability.upstreamEventCount == 1)

    screens = nil
    reachability.pruneDeadSubscribers()
    #expect(reachability.subscriberCount == 0)
    #expect(upstream.subscriptions.elements == ["subscribe", "cancel"])
    #expect(!reachability.isConnected)
    #expect(reachability.connectCount == 1)
    #expect(reachability.disconnectCount == 1)
  }

  @Test func aFailureIsReportedAndCountedNotDelivered() {
    let upstream = Upstream()
    let reachability = Broadcaster(source: PublisherSource { upstream.publisher })
    let failures = Log<DecodeFailure>()
    reachability.onDecodeFailure = { failures.append($0) }
    let screen = Screen()
    reachability.subscribe(screen)

    upstream.subject.send(Reachability(isOnline: true))
    upstream.subject.send(completion: .failure(Offline()))
    #expect(screen.received.elements == [Reachability(isOnline: true)])
    #expect(reachability.decodeFailureCount == 1)
    #expect(failures.elements.count == 1)
    #expect(failures.elements.first?.description.contains("the publisher failed") == true)
  }

  @Test func reconnectingSubscribesToAFreshPublisher() {
    let upstream = Upstream()
    let reachability = Broadcaster(source: PublisherSource { upstream.publisher })
    do {
      let screen = Screen()
      reachability.subscribe(screen)
    }
    reachability.pruneDeadSubscribers()
    #expect(reachability.subscriberCount == 0)
    let screen = Screen()
    reachability.subscribe(screen)
    upstream.subject.send(Reachability(isOnline: true))
    #expect(screen.received.elements == [Reachability(isOnline: true)])
    #expect(upstream.subscriptions.elements == ["subscribe", "cancel", "subscribe"])
    #expect(reachability.connectCount == 2)
  }
}

// OpenCombine's `PassthroughSubject` takes its own lock in `send` and `subscribe`; `subscriptions` is a `Log`.
extension PublisherSourceTests.Upstream: @unchecked Sendable {}
