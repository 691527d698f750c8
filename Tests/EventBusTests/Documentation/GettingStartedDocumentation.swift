import EventBus
import Testing

// The code of GettingStarted.md. Plain `import EventBus` (not `@testable`): the article may use public API only.

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
    final class ProfileScreen: EventResponder {
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

    @Test func theScreenRendersWhatTheViewModelSends() {
      // snippet: getting-started-subscribe
      let viewModel = ProfileViewModel()
      let screen = ProfileScreen()
      viewModel.output.subscribe(screen)  // held weakly

      viewModel.load()
      // screen.title == "Ada Lovelace", screen.isSpinnerVisible == false
      // end-snippet
      #expect(screen.title == "Ada Lovelace")
      #expect(!screen.isSpinnerVisible)
    }

    @Test func theSubscriptionEndsWithTheScreen() {
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
    }

    // snippet: getting-started-toolbar
    final class Toolbar {
      var isRefreshEnabled = true
    }
    // end-snippet

    @Test func aClosureReceivesTheResponder() {
      let viewModel = ProfileViewModel()
      let toolbar = Toolbar()
      // snippet: getting-started-closure
      viewModel.output.subscribe(toolbar) { toolbar, event in
        if case .loading(let isLoading) = event {
          toolbar.isRefreshEnabled = !isLoading
        }
      }
      // end-snippet
      // Subscribers run in subscription order: this one sees the toolbar after each event.
      final class Probe {
        let toolbar: Toolbar
        var states: [Bool] = []
        init(_ toolbar: Toolbar) { self.toolbar = toolbar }
      }
      let probe = Probe(toolbar)
      viewModel.output.subscribe(probe) { probe, _ in probe.states.append(probe.toolbar.isRefreshEnabled) }
      viewModel.load()
      #expect(probe.states == [false, false, true])
    }

    // snippet: getting-started-main-actor
    @MainActor final class ProfileView: MainActorEventResponder {
      private(set) var title = ""

      func handle(event: ProfileEvent) {
        if case .loaded(let name) = event {
          title = name
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

    @Test @MainActor func mainActorDelivery() async {
      // snippet: getting-started-main-actor-subscribe
      let viewModel = ProfileViewModel()
      let view = ProfileView()
      viewModel.output.subscribe(view)  // handle(event:) runs on the main actor

      let banner = ErrorBanner()
      let subscription = viewModel.output.subscribe(on: .main) { event in
        if case .failed(let message) = event {
          banner.show(message)
        }
      }

      viewModel.load()
      viewModel.output.send(.failed(message: "offline"))
      // view.title == "Ada Lovelace", banner.message == "offline"
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(view.title == "Ada Lovelace")
      #expect(banner.message == "offline")

      // snippet: getting-started-cancel
      subscription.cancel()  // or let the token go: releasing it cancels too
      // end-snippet
      viewModel.output.send(.failed(message: "later"))
      await Documentation.mainQueueRoundTrip()
      #expect(banner.message == "offline")
    }
  }
}
