import EventBus
import Foundation
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
      // handle(event:) runs on whichever thread calls send, so the count is behind a lock.
      private let lock = NSLock()
      private nonisolated(unsafe) var failureCount = 0  // guarded by `lock`

      var failures: Int { lock.withLock { failureCount } }

      func handle(event: ProfileEvent) {
        if case .failed = event {
          lock.withLock { failureCount += 1 }
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

    @Test func theLockedCounterCountsEveryEventSentFromManyThreadsTogether() {
      let viewModel = ProfileViewModel()
      let analytics = ProfileAnalytics()
      viewModel.output.subscribe(analytics)
      let sends = stress(1_000)
      let finished = runConcurrently(threads: 4) { _ in
        for _ in 0..<sends { viewModel.output.send(.failed(message: "offline")) }
      }
      guard finished else { return }
      #expect(analytics.failures == 4 * sends)
    }
  }
}
