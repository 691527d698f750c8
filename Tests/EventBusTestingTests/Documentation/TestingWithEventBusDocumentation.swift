import Broadcasters
import EventBusTestSupport
import EventBusTesting
import Foundation
import Testing

// The code of TestingWithEventBus.md: a quote screen with a timer, a repository that reconnects and a coordinator,
// tested with the leak check, the recorder's waits and a clock moved by hand.

// The leak check needs a build that counts live objects.
@Suite(.countsLiveObjects) struct TestingWithEventBusDocumentation {
  // snippet: testing-eventbus-repository
  /// Connects to the quote feed, calls `connected()`, forwards quotes to `sink` until the connection ends.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  typealias Feed = @Sendable (ReconnectingSource<Double>.Session) async throws -> Void

  /// Quotes from a feed that may drop: one connection for every subscriber, reconnecting after a backoff that waits on
  /// `clock`.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class QuoteRepository: Sendable {
    let quotes: Broadcaster<Double>

    init(clock: some Clock<Duration> = ContinuousClock(), feed: @escaping Feed) {
      let backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(30), jitter: 0)
      quotes = Broadcaster(source: ReconnectingSource(backoff: backoff, clock: clock, session: feed))
    }
  }
  // end-snippet

  // snippet: testing-eventbus-view-model
  /// The quote screen's view model: shows each new quote, and every 10 seconds of `clock`'s time has its view show
  /// how old the quote is.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class QuoteViewModel {
    enum Event: Sendable, Equatable {
      case quote(Double)
      case ageCheck
    }

    let output = Output<Event>()
    private let repository: QuoteRepository
    private let ticks: Broadcaster<Date>
    private var subscriptions: [EventSubscription] = []

    init(repository: QuoteRepository, clock: some Clock<Duration> = ContinuousClock()) {
      self.repository = repository
      ticks = Broadcaster(source: TimerSource(every: .seconds(10), clock: clock))
    }

    func start() {
      subscriptions = [
        repository.quotes.subscribe { [output] quote in output.send(.quote(quote)) },
        ticks.subscribe { [output] _ in output.send(.ageCheck) },
      ]
    }

    func stop() {
      for subscription in subscriptions {
        subscription.cancel()
      }
      subscriptions = []
    }
  }
  // end-snippet

  // snippet: testing-eventbus-coordinator
  /// Opens the quote screen and closes it, ending everything the screen started.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class QuoteCoordinator {
    private let makeScreen: () -> QuoteViewModel
    private(set) var screen: QuoteViewModel?

    init(repository: QuoteRepository, clock: some Clock<Duration> = ContinuousClock()) {
      makeScreen = { QuoteViewModel(repository: repository, clock: clock) }
    }

    /// Makes the screen's view model; its view starts it once bound.
    func showQuotes() -> QuoteViewModel {
      let viewModel = makeScreen()
      screen = viewModel
      return viewModel
    }

    func close() {
      screen?.stop()
      screen = nil
    }
  }
  // end-snippet

  // snippet: testing-eventbus-feeds
  struct FeedDown: Error {}

  /// Counts a feed's sessions.
  actor Attempts {
    private(set) var count = 0

    func next() -> Int {
      count += 1
      return count
    }
  }

  /// A feed that connects, sends `quotes`, and stays connected until its broadcaster lets it go.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static func steadyFeed(sending quotes: [Double]) -> Feed {
    { session in
      session.connected()
      for quote in quotes {
        session.sink.send(quote)
      }
      try await Task.sleep(for: .seconds(86_400))
    }
  }
  // end-snippet

  // snippet: testing-eventbus-timer-test
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.checksForLeaks) func theScreenChecksTheQuotesAgeEveryTenSecondsOfTheClock() async {
    let clock = ManualClock()
    let coordinator = QuoteCoordinator(repository: QuoteRepository(feed: Self.steadyFeed(sending: [])), clock: clock)
    let viewModel = coordinator.showQuotes()
    let recorder = EventRecorder(viewModel.output)
    viewModel.start()

    await clock.waitUntil(sleeperCount: 1)  // the timer is asleep until 10 s
    await recorder.expectNoEvents(within: .seconds(9), on: clock)
    await clock.run(for: .seconds(1))  // the tick: handled by the screen when this returns
    #expect(recorder.events == [.ageCheck])
    await clock.run(for: .seconds(20))  // two more, at 20 s and 30 s
    #expect(recorder.events == [.ageCheck, .ageCheck, .ageCheck])
    coordinator.close()
  }
  // end-snippet

  // snippet: testing-eventbus-reconnect-test
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.checksForLeaks) func aFeedThatFailsIsTriedAgainTwoSecondsOfTheClockLater() async {
    let clock = ManualClock()
    let attempts = Attempts()
    let repository = QuoteRepository(clock: clock) { session in
      guard await attempts.next() > 1 else { throw FeedDown() }  // the first attempt fails
      try await Self.steadyFeed(sending: [1.5])(session)
    }
    let coordinator = QuoteCoordinator(repository: repository, clock: clock)
    let viewModel = coordinator.showQuotes()
    let recorder = EventRecorder(viewModel.output)
    viewModel.start()

    await clock.waitUntil(sleeperCount: 2)  // the timer, and the backoff after the failed attempt
    #expect(clock.deadlines == [.seconds(2), .seconds(10)])  // 1 s × 2: the attempt had failed
    await clock.run(for: .seconds(2))

    await recorder.expectEvents(count: 1)
    #expect(recorder.events == [.quote(1.5)])
    #expect(await attempts.count == 2)
    coordinator.close()
  }
  // end-snippet

  // snippet: testing-eventbus-loss-test
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.checksForLeaks) func aLostFeedIsTriedAgainAfterOneSecondAndAFailedRetryAfterTwoMore() async {
    let clock = ManualClock()
    let attempts = Attempts()
    let repository = QuoteRepository(clock: clock) { session in
      switch await attempts.next() {
      case 1:
        session.connected()
        throw FeedDown()  // connected, then lost
      case 2:
        throw FeedDown()  // the attempt after the loss fails
      default:
        try await Self.steadyFeed(sending: [2.5])(session)
      }
    }
    let recorder = EventRecorder(repository.quotes)

    await clock.waitUntil(sleeperCount: 1)
    #expect(clock.deadlines == [.seconds(1)])  // after a loss: the initial wait
    await clock.run(for: .seconds(1))
    #expect(clock.deadlines == [.seconds(3)])  // after a failed attempt: 1 s × 2
    await clock.run(for: .seconds(2))

    await recorder.expectEvents(count: 1)
    #expect(recorder.events == [2.5])
  }
  // end-snippet

  // snippet: testing-eventbus-highest-quote
  /// Keeps the highest quote seen: an actor, subscribed with a handler isolated to it.
  actor HighestQuote {
    private(set) var value: Double?

    func record(_ quote: Double) {
      value = max(value ?? quote, quote)
    }
  }
  // end-snippet

  // snippet: testing-eventbus-wait-until-delivered
  @Test(.checksForLeaks) func everySubscriberHasEveryQuoteOnceTheOutputHasDelivered() async throws {
    let output = Output<Double>()
    let highest = HighestQuote()
    output.subscribe(highest) { highest, quote in highest.record(quote) }
    let recorder = EventRecorder(output, on: .main)

    for quote in [1.5, 2.5, 2.0] {
      output.send(quote)
    }

    try await output.waitUntilDelivered()  // the actor and the main actor have handled all three
    #expect(await highest.value == 2.5)
    #expect(recorder.events == [1.5, 2.5, 2.0])  // exactly: nothing else is on its way
  }
  // end-snippet

  // snippet: testing-eventbus-broadcaster-delivered
  @Test(.checksForLeaks) func everyScreenHasTheNotificationOnceTheBroadcasterHasDelivered() async throws {
    let center = NotificationCenter()
    let marketDidClose = Notification.Name("MarketDidClose")
    let market = Broadcaster(source: NotificationSource(names: [marketDidClose], center: center) { _ in "closed" })
    let recorder = EventRecorder(market, on: .main)

    center.post(name: marketDidClose, object: nil)

    try await market.waitUntilDelivered()  // the main actor has handled it
    #expect(recorder.events == ["closed"])
  }
  // end-snippet

  // snippet: testing-eventbus-failures
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aWaitThatTimesOutFailsTheTestSayingWhatItSaw() async {
    let output = Output<QuoteViewModel.Event>()
    let recorder = EventRecorder(output)
    output.send(.quote(1.5))
    await withKnownIssue {
      await recorder.expectEvents(count: 2, timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "EventRecorder: received 1 of 2 events within 50 ms: [quote(1.5)]" }
    }

    let clock = ManualClock()
    await withKnownIssue {
      await clock.waitUntil(sleeperCount: 1, timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue == "ManualClock: waited 50 ms for exactly 1 sleeper; found no sleeper (the clock is at 0 s)"
      }
    }
  }
  // end-snippet

  // snippet: testing-eventbus-leak-found
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aScreenThatIsNeverClosedLeaksItsSubscriptions() async {
    let clock = ManualClock()
    let coordinator = QuoteCoordinator(repository: QuoteRepository(feed: Self.steadyFeed(sending: [])), clock: clock)
    var viewModel: QuoteViewModel?
    let report = await LeakCheck.report(waitingUpTo: .milliseconds(100)) {
      viewModel = coordinator.showQuotes()
      viewModel?.start()
    }  // the coordinator never closes the screen, and the test still holds it
    #expect(report.leakedObjects.contains { $0.kind == "Output.Entry" && $0.eventType == "Date" })
    coordinator.close()
    viewModel = nil
  }
  // end-snippet

  // snippet: testing-eventbus-ticking-screen
  /// A screen that listens in a task of its own, which `stop()` cancels.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class TickingScreen {
    let output = Output<QuoteViewModel.Event>()
    private let ticks: Broadcaster<Date>
    private var listening: Task<Void, Never>?

    init(clock: some Clock<Duration> = ContinuousClock()) {
      ticks = Broadcaster(source: TimerSource(every: .seconds(10), clock: clock))
    }

    func start() {
      listening = Task { [ticks, output] in
        for await _ in ticks.values {
          output.send(.ageCheck)
        }
      }
    }

    func stop() {
      listening?.cancel()
    }
  }
  // end-snippet

  // snippet: testing-eventbus-task-leak
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aScreenWhoseTaskIsNeverStoppedLeaksTheTasksSubscription() async {
    let clock = ManualClock()
    let screen = TickingScreen(clock: clock)
    let report = await LeakCheck.report(waitingUpTo: .milliseconds(100)) {
      screen.start()
      await clock.waitUntil(sleeperCount: 1)
    }  // never stopped: the task still runs, and keeps its subscription to the timer
    #expect(report.leakedObjects.contains { $0.kind == "Output.Entry" && $0.eventType == "Date" })
    screen.stop()
  }
  // end-snippet
}
