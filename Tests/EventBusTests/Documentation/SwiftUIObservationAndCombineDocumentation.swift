import EventBus
import Testing

#if canImport(Observation)
  import Observation
#endif

// The code of SwiftUIObservationAndCombine.md that runs without SwiftUI or Combine: the loop a `.task` runs, the
// `@Observable` model, LatestEvent. The Combine samples are compiled against OpenCombine by the Integration package's
// tests (Integration/Tests/CombineBridgesTests/Documentation/). Plain `import EventBus`: public API only.

extension Documentation {
  @Suite struct SwiftUIObservationAndCombine {
    // snippet: swiftui-view-model
    enum ProfileEvent: Sendable, Equatable {
      case loading
      case loaded(name: String)
      case failed(message: String)
    }

    final class ProfileViewModel: Sendable {
      let output = Output<ProfileEvent>()

      func load() {
        output.send(.loading)
        output.send(.loaded(name: "Ada Lovelace"))
      }
    }
    // end-snippet

    // MARK: A loop in a task

    // snippet: swiftui-values-loop
    @MainActor final class TitleLabel {
      private(set) var text = ""

      func follow(_ events: AsyncStream<ProfileEvent>) async {
        for await event in events {
          if case .loaded(let name) = event { text = name }
        }
      }
    }
    // end-snippet

    @Test @MainActor func theLoopOfATaskFollowsTheOutputUntilTheTaskIsCancelled() async {
      // snippet: swiftui-values-start
      let viewModel = ProfileViewModel()
      let label = TitleLabel()
      let events = viewModel.output.values  // subscribed here, before the task runs
      let task = Task { await label.follow(events) }  // what `.task` does when the view appears
      // end-snippet
      #expect(viewModel.output.subscriberCount == 1)
      // snippet: swiftui-values-use
      viewModel.load()
      // label.text == "Ada Lovelace" once the loop has run

      task.cancel()  // what SwiftUI does when the view disappears: the loop and its subscription end
      // end-snippet
      await task.value
      #expect(label.text == "Ada Lovelace")
      #expect(viewModel.output.subscriberCount == 0)
    }

    #if canImport(Observation)
      // MARK: An Observable model

      // snippet: swiftui-observable-model
      @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
      @MainActor @Observable final class ProfileModel {
        private(set) var title = ""
        private(set) var isLoading = false
        private(set) var errorMessage: String?

        init(viewModel: ProfileViewModel) {
          viewModel.output.subscribe(self, on: .main) { model, event in
            switch event {
            case .loading:
              model.isLoading = true
            case .loaded(let name):
              model.title = name
              model.isLoading = false
            case .failed(let message):
              model.errorMessage = message
              model.isLoading = false
            }
          }
        }
      }
      // end-snippet

      @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
      @Test @MainActor func theModelFollowsTheOutputAndObservationSeesTheChange() async {
        let changes = Log<String>()
        // snippet: swiftui-observation-tracking
        let viewModel = ProfileViewModel()
        let model = ProfileModel(viewModel: viewModel)
        let redraws = Output<String>()  // where SwiftUI would redraw the view
        withObservationTracking {
          _ = model.title  // what a view's body reads
        } onChange: {
          redraws.send("title will change")
        }
        // end-snippet
        let subscription = redraws.subscribe { changes.append($0) }
        // snippet: swiftui-observation-load
        viewModel.load()
        // once the main actor has run the deliveries:
        // model.title == "Ada Lovelace", model.isLoading == false
        // end-snippet
        #expect(await eventually { model.title == "Ada Lovelace" })
        #expect(!model.isLoading)
        #expect(model.errorMessage == nil)
        #expect(changes.elements == ["title will change"])
        subscription.cancel()
      }

      @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
      @Test @MainActor func latestEventHoldsTheLatestName() async {
        // snippet: swiftui-latest-event
        let viewModel = ProfileViewModel()
        let names = viewModel.output.compactMap { event -> String? in
          guard case .loaded(let name) = event else { return nil }
          return name
        }
        let title = LatestEvent(names, initial: "")
        // title.value == ""

        viewModel.load()
        // title.value == "Ada Lovelace" once delivered: Text(title.value) in a body redraws with it
        // end-snippet
        #expect(await eventually { title.value == "Ada Lovelace" })
      }
    #endif
  }
}
