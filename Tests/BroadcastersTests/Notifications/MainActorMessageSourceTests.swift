#if compiler(>=6.2)
  import Broadcasters
  import EventBus
  import EventBusTestSupport
  import Foundation
  import Testing

  /// The subject of the messages below: a document that was saved.
  final class SavedDocument: Sendable {}

  /// A main-actor message about a ``SavedDocument``.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  struct DocumentDidSave: NotificationCenter.MainActorMessage, Sendable, Equatable {
    typealias Subject = SavedDocument
    let revision: Int
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  extension NotificationCenter.MessageIdentifier
  where Self == NotificationCenter.BaseMessageIdentifier<DocumentDidSave> {
    static var documentDidSave: Self { .init() }
  }

  /// A main-actor screen that writes down what it was told, in one journal shared with other screens.
  @MainActor final class JournalingScreen: Sendable {
    let name: String
    let journal: Journal

    init(_ name: String, journal: Journal) {
      self.name = name
      self.journal = journal
    }
  }

  /// What main-actor handlers saw, in the order they saw it.
  @MainActor final class Journal {
    var entries: [String] = []
  }

  /// Every test posts on a `NotificationCenter` of its own, so tests running in parallel never see each other's
  /// messages. `post` of a main-actor message must be called on the main actor, so the whole suite runs there.
  @Suite @MainActor struct MainActorMessageSourceTests {
    /// A broadcaster of revision numbers over the saves of `document`, counting its decodes.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private static func revisions(
      of document: SavedDocument,
      center: NotificationCenter,
      decodes: Counter = Counter()
    ) -> (MainActorMessageSource<Int>, Broadcaster<Int>) {
      let source = MainActorMessageSource(of: document, for: .documentDidSave, center: center) { message in
        decodes.increment()
        return message.revision
      }
      return (source, Broadcaster(source: source))
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aHundredSubscribersShareOneObserverAndOneDecodePerMessage() {
      let center = NotificationCenter()
      let document = SavedDocument()
      let decodes = Counter()
      let (source, broadcaster) = Self.revisions(of: document, center: center, decodes: decodes)
      let recorders = (0..<100).map { _ in Recorder<Int>() }
      for recorder in recorders {
        broadcaster.subscribe(recorder)
      }
      #expect(source.observerCount == 1)
      #expect(broadcaster.connectCount == 1)

      for revision in 1...3 {
        center.post(DocumentDidSave(revision: revision), subject: document)
      }
      // Delivered inside `post`, on the main actor: nothing to wait for.
      #expect(decodes.count == 3)
      #expect(broadcaster.upstreamEventCount == 3)
      #expect(recorders.allSatisfy { $0.events == [1, 2, 3] })
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func connectsWithTheFirstSubscriberAndDisconnectsAfterTheLastEveryTime() {
      let center = NotificationCenter()
      let document = SavedDocument()
      let decodes = Counter()
      let (source, broadcaster) = Self.revisions(of: document, center: center, decodes: decodes)
      #expect(source.observerCount == 0)
      center.post(DocumentDidSave(revision: 0), subject: document)
      #expect(decodes.count == 0)  // nobody listens, nothing observes

      let log = Log<Int>()
      for cycle in 1...3 {
        let tokens = (0..<10).map { _ in broadcaster.subscribe { log.append($0) } }
        #expect(source.observerCount == 1)
        #expect(broadcaster.connectCount == cycle)
        center.post(DocumentDidSave(revision: cycle), subject: document)
        for token in tokens {
          token.cancel()
        }
        #expect(source.observerCount == 0)
        #expect(!broadcaster.isConnected)
        #expect(broadcaster.disconnectCount == cycle)
        center.post(DocumentDidSave(revision: -cycle), subject: document)
      }
      #expect(decodes.count == 3)
      #expect(
        log.elements == Array(repeating: 1, count: 10) + Array(repeating: 2, count: 10) + Array(repeating: 3, count: 10)
      )
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func mainActorSubscribersRunInSubscriptionOrderBeforePostReturns() {
      let center = NotificationCenter()
      let document = SavedDocument()
      let (_, broadcaster) = Self.revisions(of: document, center: center)
      let journal = Journal()
      let screens = (0..<20).map { JournalingScreen("screen \($0)", journal: journal) }
      var tokens: [EventSubscription] = []
      for (index, screen) in screens.enumerated() {
        broadcaster.subscribe(screen, on: .main) { screen, revision in
          screen.journal.entries.append("\(screen.name): \(revision)")
        }
        if index.isMultiple(of: 5) {
          tokens.append(
            broadcaster.subscribe(on: .main) { revision in journal.entries.append("token \(index): \(revision)") })
        }
      }
      let expected = { (revision: Int) in
        screens.indices.flatMap { index in
          ["screen \(index): \(revision)"] + (index.isMultiple(of: 5) ? ["token \(index): \(revision)"] : [])
        }
      }

      center.post(DocumentDidSave(revision: 1), subject: document)
      #expect(journal.entries == expected(1))
      center.post(DocumentDidSave(revision: 2), subject: document)
      #expect(journal.entries == expected(1) + expected(2))
      _ = tokens
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func onlyTheSubjectsMessagesAreDeliveredUnlessTheSourceObservesTheSubjectType() {
      let center = NotificationCenter()
      let document = SavedDocument()
      let other = SavedDocument()
      let (_, ofDocument) = Self.revisions(of: document, center: center)
      let ofAnyDocument = Broadcaster(
        source: MainActorMessageSource(of: SavedDocument.self, for: .documentDidSave, center: center))
      let documentRecorder = Recorder<Int>()
      let anyRecorder = Recorder<DocumentDidSave>()
      ofDocument.subscribe(documentRecorder)
      ofAnyDocument.subscribe(anyRecorder)

      center.post(DocumentDidSave(revision: 1), subject: other)
      center.post(DocumentDidSave(revision: 2), subject: document)
      #expect(documentRecorder.events == [2])
      #expect(anyRecorder.events == [DocumentDidSave(revision: 1), DocumentDidSave(revision: 2)])
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func deinitialisedRespondersAreNoticedAtTheNextMessageWhichDisconnects() {
      let center = NotificationCenter()
      let document = SavedDocument()
      let (source, broadcaster) = Self.revisions(of: document, center: center)
      weak var weakRecorder: Recorder<Int>?
      do {
        let recorders = (0..<10).map { _ in Recorder<Int>() }
        for recorder in recorders {
          broadcaster.subscribe(recorder)
        }
        weakRecorder = recorders[0]
        center.post(DocumentDidSave(revision: 1), subject: document)
        #expect(recorders.allSatisfy { $0.events == [1] })
      }
      #expect(weakRecorder == nil, "the broadcaster kept a responder alive")
      #expect(source.observerCount == 1)
      center.post(DocumentDidSave(revision: 2), subject: document)
      #expect(source.observerCount == 0)
      #expect(broadcaster.disconnectCount == 1)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aCancelledSubscriptionReceivesNothingMoreAndTheOthersReceiveEverything() {
      let center = NotificationCenter()
      let document = SavedDocument()
      let (source, broadcaster) = Self.revisions(of: document, center: center)
      let first = Recorder<Int>()
      let second = Recorder<Int>()
      let third = Recorder<Int>()
      broadcaster.subscribe(first)
      let subscription = broadcaster.subscribe(second)
      broadcaster.subscribe(third)
      center.post(DocumentDidSave(revision: 1), subject: document)
      subscription.cancel()
      center.post(DocumentDidSave(revision: 2), subject: document)
      #expect(first.events == [1, 2])
      #expect(second.events == [1])
      #expect(third.events == [1, 2])
      #expect(source.observerCount == 1)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aThrowingDecodeIsCountedAndReportedWithTheMessageTypeAndLaterMessagesArrive() {
      struct Unreadable: Error, CustomStringConvertible {
        var description: String { "revision out of range" }
      }
      let center = NotificationCenter()
      let document = SavedDocument()
      let broadcaster = Broadcaster(
        source: MainActorMessageSource(of: document, for: .documentDidSave, center: center) { message in
          guard message.revision >= 0 else { throw Unreadable() }
          return message.revision
        })
      let failures = Log<DecodeFailure>()
      broadcaster.onDecodeFailure = { failures.append($0) }
      let recorder = Recorder<Int>()
      broadcaster.subscribe(recorder)

      center.post(DocumentDidSave(revision: -1), subject: document)
      center.post(DocumentDidSave(revision: 7), subject: document)

      #expect(recorder.events == [7])
      #expect(broadcaster.decodeFailureCount == 1)
      #expect(failures.elements == [DecodeFailure(name: "DocumentDidSave", reason: .other("revision out of range"))])
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func aReleasedBroadcasterRemovesItsObserverAndFreesEverything() {
      struct ReleasedMessageEvent: Sendable {}
      let center = NotificationCenter()
      let document = SavedDocument()
      let decodes = Counter()
      let recorder = Recorder<ReleasedMessageEvent>()
      let source = MainActorMessageSource(of: document, for: .documentDidSave, center: center) { _ in
        decodes.increment()
        return ReleasedMessageEvent()
      }
      weak var weakBroadcaster: Broadcaster<ReleasedMessageEvent>?
      do {
        let broadcaster = Broadcaster(source: source)
        weakBroadcaster = broadcaster
        broadcaster.subscribe(recorder)
        center.post(DocumentDidSave(revision: 1), subject: document)
        #expect(source.observerCount == 1)
      }
      #expect(weakBroadcaster == nil)
      #expect(source.observerCount == 0)
      center.post(DocumentDidSave(revision: 2), subject: document)
      #expect(decodes.count == 1)
      #expect(recorder.events.count == 1)
      #expect(LiveObjects.total(for: ReleasedMessageEvent.self) == 0)
    }

    /// G9 while the main actor posts: subscribers come and go on eight threads at once, and the source never holds two
    /// observers, and holds none at the end.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func subscribersChurningOnEightThreadsWhileTheMainActorPostsNeverMakeTwoObservers() async {
      let center = NotificationCenter()
      let document = SavedDocument()
      let (source, broadcaster) = Self.revisions(of: document, center: center)
      let mostObservers = LockedState(0)
      let posting = Task { @MainActor in
        var revision = 0
        while !Task.isCancelled {
          revision += 1
          center.post(DocumentDidSave(revision: revision), subject: document)
          await Task.yield()
        }
      }
      let cycles = scaled(2_000)
      let finished = await runConcurrently(threads: 8) { _ in
        for cycle in 0..<cycles {
          let subscription = broadcaster.subscribe { _ in }
          let observers = source.observerCount
          mostObservers.withLock { $0 = max($0, observers) }
          if cycle.isMultiple(of: 3) {
            let responder = Recorder<Int>()
            broadcaster.subscribe(responder)
          }
          subscription.cancel()
        }
      }
      posting.cancel()
      await posting.value
      guard finished else { return }
      broadcaster.pruneDeadSubscribers()
      #expect(mostObservers.withLock { $0 } == 1)
      #expect(source.observerCount == 0)
      #expect(!broadcaster.isConnected)
      #expect(broadcaster.connectCount == broadcaster.disconnectCount)
      #expect(broadcaster.connectCount >= 1)
    }
  }
#endif
