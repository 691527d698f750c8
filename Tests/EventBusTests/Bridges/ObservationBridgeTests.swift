#if canImport(Observation)
  import Dispatch
  import EventBus
  import Observation
  import Testing

  /// `LatestEvent`, and an `@Observable` model subscribed on the main actor: state that follows an output, seen by
  /// `withObservationTracking` as SwiftUI sees it.
  @Suite struct ObservationBridgeTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Observable final class ProfileModel {
      enum Event: Sendable {
        case loading
        case loaded(name: String)
      }

      private(set) var name = ""
      private(set) var isLoading = false

      init(events: some EventStream<Event>) {
        events.subscribe(self, on: .main) { model, event in
          switch event {
          case .loading:
            model.isLoading = true
          case .loaded(let name):
            model.name = name
            model.isLoading = false
          }
        }
      }
    }

    @Test @MainActor func latestEventStartsFromTheInitialValueAndFollowsTheStream() async {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let titles = Output<String>()
      let title = LatestEvent(titles, initial: "")
      #expect(title.value == "")
      titles.send("Inbox")
      titles.send("Archive")
      #expect(await eventually { title.value == "Archive" })
    }

    @Test @MainActor func readingTheValueIsObservedAndANewEventIsAChange() async {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let titles = Output<String>()
      let title = LatestEvent(titles, initial: "")
      let changes = Log<String>()
      withObservationTracking {
        _ = title.value
      } onChange: {
        changes.append("changed")
      }
      #expect(changes.elements.isEmpty)
      titles.send("Inbox")
      #expect(await eventually { title.value == "Inbox" })
      #expect(changes.elements == ["changed"])
    }

    @Test @MainActor func aReplayingOutputGivesANewLatestEventItsReplayWindow() async {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let session = Output<String>(replay: 1)
      session.send("signed out")
      session.send("signed in")
      let state = LatestEvent(session, initial: "unknown")
      #expect(await eventually { state.value == "signed in" })
      session.send("signed out")
      #expect(await eventually { state.value == "signed out" })
    }

    @Test @MainActor func eventsSentOffTheMainActorArriveOnIt() async {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let progress = Output<Int>()
      let percent = LatestEvent(progress, initial: 0)
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        for value in 1...100 { progress.send(value) }
        done.signal()
      }
      #expect(await eventually { percent.value == 100 })
      done.wait()
    }

    @Test @MainActor func releasingLatestEventEndsItsSubscription() {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let titles = Output<String>()
      weak var weakTitle: LatestEvent<String>?
      do {
        let title = LatestEvent(titles, initial: "")
        weakTitle = title
        #expect(titles.subscriberCount == 1)
      }
      #expect(weakTitle == nil)
      #expect(titles.subscriberCount == 0)
      titles.send("nobody listens")
    }

    @Test @MainActor func anObservableModelFollowsItsOutputAndReportsEachChange() async {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let output = Output<ProfileModel.Event>()
      let model = ProfileModel(events: output)
      let changes = Log<String>()
      withObservationTracking {
        _ = model.name
      } onChange: {
        changes.append("name")
      }
      withObservationTracking {
        _ = model.isLoading
      } onChange: {
        changes.append("isLoading")
      }

      output.send(.loading)
      #expect(await eventually { model.isLoading })
      #expect(changes.elements == ["isLoading"])

      output.send(.loaded(name: "Ada Lovelace"))
      #expect(await eventually { model.name == "Ada Lovelace" })
      #expect(!model.isLoading)
      #expect(changes.elements == ["isLoading", "name"])  // each tracking fires once, then must be renewed
    }

    @Test @MainActor func theModelIsHeldWeakly() {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let output = Output<ProfileModel.Event>()
      weak var weakModel: ProfileModel?
      do {
        let model = ProfileModel(events: output)
        weakModel = model
      }
      #expect(weakModel == nil)
      #expect(output.subscriberCount == 0)
    }
  }
#endif
