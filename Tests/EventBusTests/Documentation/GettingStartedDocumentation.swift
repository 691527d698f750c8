import EventBus
import EventBusTestSupport
import Foundation
import Testing

// The code of GettingStarted.md. Plain `import EventBus` (not `@testable`): the article may use public API only.

// At file scope, so that the other articles' code can use it too: Runtime Behavior shows it again.
// snippet: lock-box
/// A value that one thread at a time reads and changes, inside `withLock`: the shape of the standard library's `Mutex`.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value  // read and written only inside `withLock`, which holds `lock`

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}
// end-snippet

extension Documentation {
  @Suite struct GettingStarted {
    // snippet: getting-started-event
    enum ProfileEvent: Sendable {
      case loading(Bool)
      case loaded(name: String)
      case failed(message: String)
    }
    // end-snippet

    // snippet: getting-started-view-model
    final class ProfileViewModel: Sendable {
      let output = Output<ProfileEvent>()

      func load() {
        output.send(.loading(true))
        output.send(.loaded(name: "Ada Lovelace"))
        output.send(.loading(false))
      }
    }
    // end-snippet

    // snippet: getting-started-responder
    @MainActor final class ProfileScreen: MainActorEventResponder {
      private(set) var title = ""
      private(set) var isSpinnerVisible = false

      func handle(event: ProfileEvent) {
        switch event {
        case .loading(let isLoading):
          isSpinnerVisible = isLoading
        case .loaded(let name):
          title = name
        case .failed(let message):
          title = "Something went wrong: \(message)"
        }
      }
    }
    // end-snippet

    @Test @MainActor func theScreenRendersWhatTheViewModelSends() async {
      // snippet: getting-started-subscribe
      let viewModel = ProfileViewModel()
      let screen = ProfileScreen()
      viewModel.output.subscribe(screen)  // held weakly

      viewModel.load()
      // screen.title == "Ada Lovelace", screen.isSpinnerVisible == false
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(screen.title == "Ada Lovelace")
      #expect(!screen.isSpinnerVisible)
    }

    @Test @MainActor func theSubscriptionEndsWithTheScreen() async {
      // snippet: getting-started-weak
      let viewModel = ProfileViewModel()
      var screen: ProfileScreen? = ProfileScreen()
      viewModel.output.subscribe(screen!)
      // viewModel.output.subscriberCount == 1

      screen = nil  // the screen goes away; nothing else to do
      // viewModel.output.subscriberCount == 0
      // end-snippet
      #expect(viewModel.output.subscriberCount == 0)
      viewModel.load()
      await Documentation.mainQueueRoundTrip()
      #expect(viewModel.output.subscriberCount == 0)
    }

    // snippet: getting-started-toolbar
    @MainActor final class Toolbar {
      var isRefreshEnabled = true
    }
    // end-snippet

    @Test @MainActor func aClosureReceivesTheResponder() async {
      let viewModel = ProfileViewModel()
      let toolbar = Toolbar()
      // snippet: getting-started-closure
      viewModel.output.subscribe(toolbar, on: .main) { toolbar, event in
        if case .loading(let isLoading) = event {
          toolbar.isRefreshEnabled = !isLoading
        }
      }
      // end-snippet
      viewModel.output.send(.loading(true))
      await Documentation.mainQueueRoundTrip()
      #expect(!toolbar.isRefreshEnabled)
      viewModel.output.send(.loaded(name: "Ada Lovelace"))
      await Documentation.mainQueueRoundTrip()
      #expect(!toolbar.isRefreshEnabled, "an event other than .loading changed the toolbar")
      viewModel.output.send(.loading(false))
      await Documentation.mainQueueRoundTrip()
      #expect(toolbar.isRefreshEnabled)
    }

    // snippet: getting-started-sendable-responder
    final class ProfileAnalytics: EventResponder {
      // handle(event:) runs on whichever thread calls send, so the count is in a lock box.
      private let failureCount = Locked(0)

      var failures: Int { failureCount.withLock { $0 } }

      func handle(event: ProfileEvent) {
        if case .failed = event {
          failureCount.withLock { $0 += 1 }
        }
      }
    }
    // end-snippet

    // snippet: getting-started-banner
    @MainActor final class ErrorBanner {
      private(set) var message: String?
      func show(_ message: String) { self.message = message }
    }
    // end-snippet

    @Test @MainActor func anyThreadAndMainActorDelivery() async {
      // snippet: getting-started-main-actor-subscribe
      let viewModel = ProfileViewModel()
      let analytics = ProfileAnalytics()
      viewModel.output.subscribe(analytics)  // handle(event:) runs on the thread that sends

      let banner = ErrorBanner()
      let subscription = viewModel.output.subscribe(on: .main) { event in
        if case .failed(let message) = event {
          banner.show(message)
        }
      }

      viewModel.load()
      viewModel.output.send(.failed(message: "offline"))
      // analytics.failures == 1, banner.message == "offline"
      // end-snippet
      #expect(analytics.failures == 1, "an .immediate responder ran after send returned")
      await Documentation.mainQueueRoundTrip()
      #expect(banner.message == "offline")

      // snippet: getting-started-cancel
      subscription.cancel()  // or let the token go: releasing it cancels too
      // end-snippet
      viewModel.output.send(.failed(message: "later"))
      await Documentation.mainQueueRoundTrip()
      #expect(banner.message == "offline")
      #expect(analytics.failures == 2)
    }

    @Test func aTaskLoopingOverValuesReadBeforeItReceivesEveryEvent() async {
      let output: Output<ProfileEvent>
      do {
        // snippet: getting-started-values
        let viewModel = ProfileViewModel()
        let events = viewModel.output.values  // subscribed here, before the task runs
        let task = Task {
          var names: [String] = []
          for await event in events {
            if case .loaded(let name) = event { names.append(name) }
            if case .loading(false) = event { break }
          }
          return names
        }
        viewModel.load()  // perhaps before the task has started: the events wait in `events`
        // await task.value == ["Ada Lovelace"]
        // end-snippet
        #expect(await task.value == ["Ada Lovelace"])
        output = viewModel.output
      }
      #expect(output.subscriberCount == 0, "the loop ended and `events` went, but the subscription stayed")
    }

    // snippet: getting-started-stateful-view-model
    enum EditNameEvent: Sendable {
      case nameChanged(String)
      case saveTapped
    }

    enum EditNameState: Sendable {
      case editing(canSave: Bool)
      case saved(name: String)
    }

    @MainActor final class EditNameViewModel: @MainActor EventViewModel {
      let output = Output<EditNameState>()
      private var name = ""  // main-actor state: no lock

      func start() {
        output.send(.editing(canSave: false))
      }

      func handle(event: EditNameEvent) {
        switch event {
        case .nameChanged(let newName):
          name = newName
          output.send(.editing(canSave: !name.isEmpty))
        case .saveTapped:
          guard !name.isEmpty else { return }
          output.send(.saved(name: name))
        }
      }
    }
    // end-snippet

    // snippet: getting-started-stateful-view
    @MainActor final class EditNameView: EventView {
      let output = Output<EditNameEvent>()
      var viewModel: AnyEventViewModel<EditNameEvent, EditNameState>?
      private(set) var isSaveEnabled = true
      private(set) var confirmation: String?

      func handle(event: EditNameState) {
        switch event {
        case .editing(let canSave): isSaveEnabled = canSave
        case .saved(let name): confirmation = "Saved \(name)"
        }
      }
    }
    // end-snippet

    @Test @MainActor func aMainActorViewModelKeepsItsStateAndDrivesItsView() async {
      // snippet: getting-started-stateful-bind
      let view = EditNameView()
      view.bind(to: EditNameViewModel())  // the view keeps its view model; start() sends the first state
      // view.isSaveEnabled == false

      view.output.send(.nameChanged("Ada"))
      view.output.send(.saveTapped)
      // view.isSaveEnabled == true, view.confirmation == "Saved Ada"
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(view.isSaveEnabled)
      #expect(view.confirmation == "Saved Ada")
      view.output.send(.nameChanged(""))
      view.output.send(.saveTapped)
      await Documentation.mainQueueRoundTrip()
      #expect(!view.isSaveEnabled)
      #expect(view.confirmation == "Saved Ada", "an empty name was saved")
    }

    @Test @MainActor func theStatefulViewModelStartsTheViewDisabled() async {
      let view = EditNameView()
      view.bind(to: EditNameViewModel())
      await Documentation.mainQueueRoundTrip()
      #expect(!view.isSaveEnabled)
      #expect(view.confirmation == nil)
    }

    @Test func theLockedCounterCountsEveryEventSentFromManyThreadsTogether() async {
      let viewModel = ProfileViewModel()
      let analytics = ProfileAnalytics()
      viewModel.output.subscribe(analytics)
      let sends = stress(1_000)
      let finished = await runConcurrently(threads: 4) { _ in
        for _ in 0..<sends { viewModel.output.send(.failed(message: "offline")) }
      }
      guard finished else { return }
      #expect(analytics.failures == 4 * sends)
    }
  }
}
