import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

/// G8 for broadcasters: what a broadcaster releases (a dead responder's handler and its captures when an upstream event
/// or a prune finds it, a connection when it disconnects) is released with no lock held. Each test gives the
/// broadcaster ``ReenteringObject``s, whose `deinit` calls back into it, and counts exactly the `deinit`s that ran to
/// the end. A test whose watchdog fired returns at once, and abandons what would call into the broadcaster when
/// released: its stuck thread may hold a lock.
@Suite struct ReentrantReleaseTests {
  /// A responder that does nothing: the tests only let it deinitialise.
  final class Screen: Sendable {}

  /// A weak reference to a broadcaster, set once it exists, for a source created before it.
  final class BroadcasterReference<Event: Sendable>: Sendable {
    private struct Storage {
      weak var broadcaster: Broadcaster<Event>?
    }

    private let storage = LockedState(Storage())

    var broadcaster: Broadcaster<Event>? {
      get { storage.withLock { $0.broadcaster } }
      set { storage.withLock { $0.broadcaster = newValue } }
    }
  }

  /// A source whose connection is an object that calls back into the broadcaster when it is released: the
  /// broadcaster releases it when it disconnects.
  struct ReenteringSource: EventSource {
    let journal: ReentryJournal
    let reference: BroadcasterReference<Int>

    func start(emitting sink: EventSink<Int>) -> ReenteringObject {
      let reference = reference
      let reentry = Reentry(
        subscriberCount: { reference.broadcaster?.subscriberCount },
        send: { sink.send(99) },  // ignored once the connection is stopped
        subscribe: { reference.broadcaster?.subscribe { _ in } }
      )
      return ReenteringObject("connection", journal: journal, reentry: reentry)
    }

    func stop(_ connection: ReenteringObject) {}
  }

  /// Subscribes a responder that has deinitialised when this returns. Its handler holds `object`, and nothing else
  /// does: the broadcaster releases it when it removes the dead subscription.
  static func subscribeDeadResponder(to broadcaster: Broadcaster<Int>, holding object: ReenteringObject) {
    broadcaster.subscribe(Screen()) { _, _ in withExtendedLifetime(object) {} }
  }

  @Test func upstreamEventReachingADeadResponderReleasesItsHandlerWithNoLockHeld() async {
    let (broadcaster, source) = Broadcaster<Int>.recording()
    let journal = ReentryJournal()
    let received = Log<Int>()
    let token = broadcaster.subscribe { received.append($0) }
    Self.subscribeDeadResponder(
      to: broadcaster,
      holding: ReenteringObject(
        "upstream", journal: journal, reentry: .broadcaster(broadcaster, emitting: 99, through: source)))
    let finished = await withWatchdog { source.emit(1) }
    #expect(finished, "G8: an upstream event that found a dead responder deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.all == [.init(name: "upstream", subscriberCount: 1)])
    #expect(received.elements == [1, 99], "the deinit's upstream event was not delivered")
    #expect(broadcaster.isConnected)
    #expect(broadcaster.connectCount == 1)
    withExtendedLifetime(token) {}
  }

  @Test func upstreamEventsFromTwoThreadsReleaseEachDeadHandlerOnce() async {
    // Before each round three responders die; then two threads emit upstream together.
    let (broadcaster, source) = Broadcaster<Int>.recording()
    let journal = ReentryJournal()
    let received = Counter()
    let token = broadcaster.subscribe { _ in received.increment() }
    let rounds = scaled(300)
    let perRound = 3
    let barrier = CyclicBarrier(parties: 2)
    let finished = await runConcurrently(threads: 2) { thread in
      for round in 0..<rounds {
        if thread == 0 {
          for index in 0..<perRound {
            Self.subscribeDeadResponder(
              to: broadcaster,
              holding: ReenteringObject(
                "\(round).\(index)", journal: journal,
                reentry: .broadcaster(broadcaster, emitting: -1, through: source)))
          }
        }
        guard barrier.arrive() else { return }
        source.emit(round)
        guard barrier.arrive() else { return }
      }
    }
    #expect(finished, "G8: upstream events that found dead responders deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.count == rounds * perRound)
    #expect(received.count == 2 * rounds + rounds * perRound, "every upstream event, and each deinit's, delivered")
    #expect(broadcaster.connectCount == 1)
    withExtendedLifetime(token) {}
  }

  @Test func pruningTheLastDeadResponderReleasesItsHandlerWithNoLockHeldAndDisconnects() async {
    let (broadcaster, source) = Broadcaster<Int>.recording()
    let journal = ReentryJournal()
    Self.subscribeDeadResponder(
      to: broadcaster,
      holding: ReenteringObject(
        "pruned", journal: journal, reentry: .broadcaster(broadcaster, emitting: 99, through: source)))
    #expect(broadcaster.isConnected)
    let finished = await withWatchdog { broadcaster.pruneDeadSubscribers() }
    #expect(finished, "G8: pruning a broadcaster's dead responder deadlocked")
    guard finished else { return }
    #expect(journal.all == [.init(name: "pruned", subscriberCount: 0)])
    #expect(!broadcaster.isConnected)
    #expect(broadcaster.connectCount == broadcaster.disconnectCount)
    #expect(source.maxLive == 1)
  }

  @Test func disconnectReleasesTheConnectionWithNoLockHeld() async {
    let journal = ReentryJournal()
    let reference = BroadcasterReference<Int>()
    let broadcaster = Broadcaster(source: ReenteringSource(journal: journal, reference: reference))
    reference.broadcaster = broadcaster
    let cycles = 3
    let finished = await withWatchdog {
      for _ in 0..<cycles {
        let token = broadcaster.subscribe { _ in }
        token.cancel()
      }
    }
    #expect(finished, "G8: releasing a connection on disconnect deadlocked")
    guard finished else { return }
    #expect(journal.all == Array(repeating: .init(name: "connection", subscriberCount: 0), count: cycles))
    #expect(broadcaster.connectCount == cycles)
    #expect(broadcaster.disconnectCount == cycles)
    #expect(!broadcaster.isConnected)
  }

  @Test func connectionsReleasedWhileThreadsSubscribeAndCancelAreEachReleasedOnce() async {
    let journal = ReentryJournal()
    let reference = BroadcasterReference<Int>()
    let broadcaster = Broadcaster(source: ReenteringSource(journal: journal, reference: reference))
    reference.broadcaster = broadcaster
    let cycles = scaled(300)
    let finished = await runConcurrently(threads: 2) { _ in
      for _ in 0..<cycles {
        let token = broadcaster.subscribe { _ in }
        token.cancel()
      }
    }
    #expect(finished, "G8: releasing connections on disconnect deadlocked")
    guard finished else { return }
    #expect(!broadcaster.isConnected)
    #expect(broadcaster.connectCount == broadcaster.disconnectCount)
    #expect(journal.count == broadcaster.disconnectCount, "a connection was released twice, or never")
  }
}
