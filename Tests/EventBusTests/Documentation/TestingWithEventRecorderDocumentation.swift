import Dispatch
import EventBus
import Testing

// The code of TestingWithEventRecorder.md. Here the snippets are whole test functions: the article shows the tests
// themselves.

extension Documentation {
  @Suite struct TestingWithEventRecorder {
    // MARK: The code under test

    // snippet: testing-view-model
    final class SearchViewModel: EventViewModel {
      enum ViewEvent: Sendable, Equatable {
        case queryChanged(String)
        case clearTapped
      }

      enum ViewModelEvent: Sendable, Equatable {
        case loading(Bool)
        case results([String])
        case empty
      }

      let output = Output<ViewModelEvent>()
      private let catalog: [String]

      init(catalog: [String]) {
        self.catalog = catalog
      }

      func start() {
        output.send(.empty)
      }

      func handle(event: ViewEvent) {
        switch event {
        case .queryChanged(let query):
          output.send(.loading(true))
          let matches = catalog.filter { $0.lowercased().contains(query.lowercased()) }
          output.send(matches.isEmpty ? .empty : .results(matches))
          output.send(.loading(false))
        case .clearTapped:
          output.send(.empty)
        }
      }
    }
    // end-snippet

    // snippet: testing-view
    @MainActor final class SearchView: EventView {
      typealias ViewEvent = SearchViewModel.ViewEvent
      typealias ViewModelEvent = SearchViewModel.ViewModelEvent

      let output = Output<ViewEvent>()
      var viewModel: AnyEventViewModel<ViewEvent, ViewModelEvent>?
      private(set) var rows: [String] = []
      private(set) var isSpinnerVisible = false
      private var onClearTap: (() -> Void)?

      func setupBindings() {
        onClearTap = { [output] in output.send(.clearTapped) }
      }

      func tapClear() { onClearTap?() }

      func handle(event: ViewModelEvent) {
        switch event {
        case .loading(let isLoading): isSpinnerVisible = isLoading
        case .results(let titles): rows = titles
        case .empty: rows = []
        }
      }
    }
    // end-snippet

    // snippet: testing-remote-view-model
    /// Searches on a background queue, like a view model that calls a server.
    final class RemoteSearchViewModel: Sendable {
      let output = Output<SearchViewModel.ViewModelEvent>()
      private let queue = DispatchQueue(label: "search")

      func search(_ query: String) {
        output.send(.loading(true))
        queue.async { [output] in
          output.send(.results(["\(query) (remote)"]))
          output.send(.loading(false))
        }
      }
    }
    // end-snippet

    // MARK: Tests, as the article shows them

    // snippet: testing-record
    @Test func typingAQueryShowsTheMatches() {
      let viewModel = SearchViewModel(catalog: ["Tea", "Coffee", "Teapot"])
      let recorder = EventRecorder(viewModel.output)

      viewModel.start()
      viewModel.handle(event: .queryChanged("tea"))

      #expect(recorder.events == [.empty, .loading(true), .results(["Tea", "Teapot"]), .loading(false)])
    }
    // end-snippet

    // snippet: testing-wait
    @Test func resultsArriveFromTheBackgroundQueue() async {
      let viewModel = RemoteSearchViewModel()
      let recorder = EventRecorder(viewModel.output)

      viewModel.search("tea")

      #expect(await recorder.waitForEvents(count: 3))
      #expect(recorder.events == [.loading(true), .results(["tea (remote)"]), .loading(false)])
    }
    // end-snippet

    // snippet: testing-main
    @Test @MainActor func theViewReceivesResultsOnTheMainActor() async {
      let viewModel = RemoteSearchViewModel()
      // Records as a `.main` subscriber receives the events:
      let recorder = EventRecorder(viewModel.output, on: .main)

      viewModel.search("tea")

      #expect(await recorder.waitForEvents(count: 3))
      #expect(recorder.events.last == .loading(false))
    }
    // end-snippet

    // snippet: testing-view-alone
    @Test @MainActor func theViewRendersWhatItIsTold() {
      let view = SearchView()

      view.handle(event: .results(["Tea", "Teapot"]))

      #expect(view.rows == ["Tea", "Teapot"])
    }

    @Test @MainActor func tappingClearTellsTheViewModel() {
      let view = SearchView()
      let recorder = EventRecorder(view.output)
      view.setupBindings()

      view.tapClear()

      #expect(recorder.events == [.clearTapped])
    }
    // end-snippet

    // snippet: testing-no-leak
    @Test @MainActor func releasingTheViewReleasesTheViewModel() {
      weak var weakView: SearchView?
      weak var weakViewModel: SearchViewModel?
      do {
        let view = SearchView()
        let viewModel = SearchViewModel(catalog: ["Tea"])
        view.bind(to: viewModel)
        weakView = view
        weakViewModel = viewModel
      }
      #expect(weakView == nil)
      #expect(weakViewModel == nil)
    }
    // end-snippet

    // snippet: testing-several-streams
    @Test func theSpinnerAndTheResultsArriveInOrder() {
      let viewModel = SearchViewModel(catalog: ["Tea"])
      let spinner = viewModel.output.compactMap { event -> String? in
        guard case .loading(let isLoading) = event else { return nil }
        return isLoading ? "spinner on" : "spinner off"
      }
      let rows = viewModel.output.compactMap { event -> String? in
        guard case .results(let titles) = event else { return nil }
        return "rows: \(titles.joined(separator: ", "))"
      }
      let recorder = EventRecorder<String>()
      recorder.record(from: spinner)
      let rowsRecording = recorder.record(from: rows)

      viewModel.handle(event: .queryChanged("tea"))
      rowsRecording.cancel()  // stop recording this stream; the other one goes on
      viewModel.handle(event: .queryChanged("te"))

      #expect(
        recorder.events == ["spinner on", "rows: Tea", "spinner off", "spinner on", "spinner off"])
    }
    // end-snippet
  }
}
