#if compiler(>=6.2)
  import Broadcasters
  import EventBus
  import EventBusTestSupport
  import Foundation
  import Testing

  /// The subject of the messages below: a queue of imports.
  final class ImportQueue: Sendable {}

  /// An asynchronous message about an ``ImportQueue``, posted from any thread.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  struct ImportDidFinish: NotificationCenter.AsyncMessage, Equatable {
    typealias Subject = ImportQueue
    let batch: Int
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  extension NotificationCenter.MessageIdentifier
  where Self == NotificationCenter.BaseMessageIdentifier<ImportDidFinish> {
    static var importDidFinish: Self { .init() }
  }

  /// A responder that records its events and checks that no two of them are handled at once.
  final class SerialRecorder: EventResponder, Sendable {
    private let state = LockedState((inside: 0, mostInside: 0))
    let log = Log<Int>()

    func handle(event: Int) {
      state.withLock {
        $0.inside += 1
        $0.mostInside = max($0.mostInside, $0.inside)
      }
      log.append(event)
      state.withLock { $0.inside -= 1 }
    }

    var events: [Int] { log.elements }
    var mostAtOnce: Int { state.withLock { $0.mostInside } }
  }

  /// Every test posts on a `NotificationCenter` of its own, so tests running in parallel never see each other's
  /// messages. The center delivers each message from a task of its own after `post` returned, so tests wait for
  /// deliveries with a timeout.
  @Suite struct AsyncMessageSourceTests {
    /// A broadcaster of batch numbers over the imports of `queue`, counting its decodes.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private static func batches(
      of queue: ImportQueue,
      center: NotificationCenter,
      decodes: Counter = Counter()
    ) -> (AsyncMessageSource<Int>, Broadcaster<Int>) {
      let source = AsyncMessageSource(of: queue, for: .importDidFinish, center: center) { message in
        decodes.increment()
        return message.batch
      }
      return (source, Broadcaster(source: source))
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aHundredSubscribersShareOneObserverAndOneDecodePerMessageInOneOrder() async {
      let center = NotificationCenter()
      let queue = ImportQueue()
      let decodes = Counter()
      let (source, broadcaster) = Self.batches(of: queue, center: center, decodes: decodes)
      let recorders = (0..<100).map { _ in SerialRecorder() }
      for recorder in recorders {
        broadcaster.subscribe(recorder)
      }
      #expect(source.observerCount == 1)

      for batch in 0..<50 {
        center.post(ImportDidFinish(batch: batch), subject: queue)
      }
      let arrived = await eventually { recorders.allSatisfy { $0.events.count == 50 } }
      #expect(arrived)
      #expect(decodes.count == 50)
      #expect(broadcaster.upstreamEventCount == 50)
      let first = recorders[0].events
      #expect(Set(first) == Set(0..<50))
      #expect(recorders.allSatisfy { $0.events == first })
      #expect(source.observerCount == 1)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func messagesPostedFromEightThreadsReachEverySubscriberOnceOneAtATimeInOneOrder() async {
      let center = NotificationCenter()
      let queue = ImportQueue()
      let (_, broadcaster) = Self.batches(of: queue, center: center)
      let recorders = (0..<20).map { _ in SerialRecorder() }
      for recorder in recorders {
        broadcaster.subscribe(recorder)
      }
      // Foundation on Linux creates a center's delivery queue for asynchronous messages lazily, without a lock, and
      // loses messages posted from several threads while it does: one delivery first creates it.
      center.post(ImportDidFinish(batch: -1), subject: queue)
      let warmedUp = await eventually { recorders.allSatisfy { $0.events == [-1] } }
      #expect(warmedUp)
      let perThread = scaled(250)
      let finished = await runConcurrently(threads: 8) { thread in
        for batch in 0..<perThread {
          center.post(ImportDidFinish(batch: thread * perThread + batch), subject: queue)
        }
      }
      guard finished else { return }
      let total = 8 * perThread
      let arrived = await eventually { recorders.allSatisfy { $0.events.count == 1 + total } }
      #expect(arrived)
      let first = recorders[0].events
      #expect(Set(first.dropFirst()) == Set(0..<total))
      #expect(first.count == 1 + total)
      #expect(recorders.allSatisfy { $0.events == first })
      #expect(recorders.allSatisfy { $0.mostAtOnce == 1 })
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func connectsWithTheFirstSubscriberAndDisconnectsAfterTheLastEveryTime() async {
      let center = NotificationCenter()
      let queue = ImportQueue()
      let (source, broadcaster) = Self.batches(of: queue, center: center)
      let log = Log<Int>()
      for cycle in 1...3 {
        let tokens = (0..<10).map { _ in broadcaster.subscribe { log.append($0) } }
        #expect(source.observerCount == 1)
        #expect(broadcaster.connectCount == cycle)
        center.post(ImportDidFinish(batch: cycle), subject: queue)
        let arrived = await eventually { log.count == 10 * cycle }
        #expect(arrived)
        for token in tokens {
          token.cancel()
        }
        #expect(source.observerCount == 0)
        #expect(!broadcaster.isConnected)
        #expect(broadcaster.disconnectCount == cycle)
        // Nothing observes: this post starts no delivery at all.
        center.post(ImportDidFinish(batch: -cycle), subject: queue)
      }
      #expect(log.elements.allSatisfy { $0 > 0 })
      #expect(log.count == 30)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func onlyTheSubjectsMessagesAreDeliveredUnlessTheSourceObservesTheSubjectType() async {
      let center = NotificationCenter()
      let queue = ImportQueue()
      let (_, ofQueue) = Self.batches(of: queue, center: center)
      let ofAnyQueue = Broadcaster(
        source: AsyncMessageSource(of: ImportQueue.self, for: .importDidFinish, center: center))
      let queueLog = Log<Int>()
      let anyLog = Log<ImportDidFinish>()
      let queueToken = ofQueue.subscribe { queueLog.append($0) }
      let anyToken = ofAnyQueue.subscribe { anyLog.append($0) }

      center.post(ImportDidFinish(batch: 1), subject: ImportQueue())
      center.post(ImportDidFinish(batch: 2), subject: queue)
      let arrived = await eventually { anyLog.count == 2 && queueLog.count == 1 }
      #expect(arrived)
      #expect(queueLog.elements == [2])
      #expect(Set(anyLog.elements.map(\.batch)) == [1, 2])
      queueToken.cancel()
      anyToken.cancel()
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func deinitialisedRespondersAreNoticedAtTheNextMessageWhichDisconnects() async {
      let center = NotificationCenter()
      let queue = ImportQueue()
      let (source, broadcaster) = Self.batches(of: queue, center: center)
      weak var weakRecorder: SerialRecorder?
      do {
        let recorders = (0..<10).map { _ in SerialRecorder() }
        for recorder in recorders {
          broadcaster.subscribe(recorder)
        }
        weakRecorder = recorders[0]
        center.post(ImportDidFinish(batch: 1), subject: queue)
        let arrived = await eventually { recorders.allSatisfy { $0.events == [1] } }
        #expect(arrived)
      }
      #expect(weakRecorder == nil, "the broadcaster kept a responder alive")
      #expect(source.observerCount == 1)
      center.post(ImportDidFinish(batch: 2), subject: queue)
      // The broadcaster counts the disconnect after the source has removed its observer: wait for both.
      let disconnected = await eventually { source.observerCount == 0 && broadcaster.disconnectCount == 1 }
      #expect(disconnected)
      #expect(broadcaster.disconnectCount == 1)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aCancelledSubscriptionReceivesNothingSentAfterItsCancelAndTheOthersReceiveEverything() async {
      let center = NotificationCenter()
      let queue = ImportQueue()
      let (_, broadcaster) = Self.batches(of: queue, center: center)
      let first = SerialRecorder()
      let second = SerialRecorder()
      let third = SerialRecorder()
      broadcaster.subscribe(first)
      let subscription = broadcaster.subscribe(second)
      broadcaster.subscribe(third)
      center.post(ImportDidFinish(batch: 1), subject: queue)
      let firstArrived = await eventually { second.events == [1] && third.events == [1] }
      #expect(firstArrived)
      subscription.cancel()
      center.post(ImportDidFinish(batch: 2), subject: queue)
      let secondArrived = await eventually { first.events == [1, 2] && third.events == [1, 2] }
      #expect(secondArrived)
      #expect(second.events == [1])
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aThrowingDecodeIsCountedAndReportedWithTheMessageTypeAndLaterMessagesArrive() async {
      struct Unreadable: Error, CustomStringConvertible {
        var description: String { "negative batch" }
      }
      let center = NotificationCenter()
      let queue = ImportQueue()
      let broadcaster = Broadcaster(
        source: AsyncMessageSource(of: queue, for: .importDidFinish, center: center) { message in
          guard message.batch >= 0 else { throw Unreadable() }
          return message.batch
        })
      let failures = Log<DecodeFailure>()
      broadcaster.onDecodeFailure = { failures.append($0) }
      let recorder = SerialRecorder()
      broadcaster.subscribe(recorder)

      center.post(ImportDidFinish(batch: -1), subject: queue)
      center.post(ImportDidFinish(batch: 7), subject: queue)
      let arrived = await eventually { recorder.events == [7] && failures.count == 1 }
      #expect(arrived)
      #expect(broadcaster.decodeFailureCount == 1)
      #expect(failures.elements == [DecodeFailure(name: "ImportDidFinish", reason: .other("negative batch"))])
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aReleasedBroadcasterRemovesItsObserverAndFreesEverything() async {
      struct ReleasedMessageEvent: Sendable {}
      let center = NotificationCenter()
      let queue = ImportQueue()
      let decodes = Counter()
      let recorder = Recorder<ReleasedMessageEvent>()
      let source = AsyncMessageSource(of: queue, for: .importDidFinish, center: center) { _ in
        decodes.increment()
        return ReleasedMessageEvent()
      }
      weak var weakBroadcaster: Broadcaster<ReleasedMessageEvent>?
      do {
        let broadcaster = Broadcaster(source: source)
        weakBroadcaster = broadcaster
        broadcaster.subscribe(recorder)
        center.post(ImportDidFinish(batch: 1), subject: queue)
        let arrived = await eventually { recorder.events.count == 1 }
        #expect(arrived)
        #expect(source.observerCount == 1)
      }
      #expect(weakBroadcaster == nil)
      #expect(source.observerCount == 0)
      // Nothing observes any more: this post starts no delivery at all.
      center.post(ImportDidFinish(batch: 2), subject: queue)
      #expect(decodes.count == 1)
      #expect(recorder.events.count == 1)
      #expect(LiveObjects.total(for: ReleasedMessageEvent.self) == 0)
    }

    /// G9 while eight threads post: each also subscribes and cancels, again and again, and the source never holds two
    /// observers, and holds none at the end.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func subscribersChurningOnEightPostingThreadsNeverMakeTwoObservers() async {
      let center = NotificationCenter()
      let queue = ImportQueue()
      let (source, broadcaster) = Self.batches(of: queue, center: center)
      let mostObservers = LockedState(0)
      let cycles = scaled(2_000)
      let finished = await runConcurrently(threads: 8) { thread in
        for cycle in 0..<cycles {
          let subscription = broadcaster.subscribe { _ in }
          let observers = source.observerCount
          mostObservers.withLock { $0 = max($0, observers) }
          center.post(ImportDidFinish(batch: thread * cycles + cycle), subject: queue)
          if cycle.isMultiple(of: 3) {
            broadcaster.subscribe(SerialRecorder())
          }
          subscription.cancel()
        }
      }
      guard finished else { return }
      broadcaster.pruneDeadSubscribers()
      // A message still being delivered may have found the last responders dead and be stopping the source on its
      // task; the prune then leaves the stop to that task, which counts the disconnect once the observer is gone.
      #expect(await eventually { broadcaster.connectCount == broadcaster.disconnectCount })
      #expect(mostObservers.withLock { $0 } == 1)
      #expect(source.observerCount == 0)
      #expect(!broadcaster.isConnected)
      #expect(broadcaster.connectCount == broadcaster.disconnectCount)
      #expect(broadcaster.connectCount >= 1)
    }
  }
#endif
