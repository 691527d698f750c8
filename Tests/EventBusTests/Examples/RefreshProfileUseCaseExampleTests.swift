import Testing

@testable import EventBus

@Suite @MainActor struct RefreshProfileUseCaseExampleTests {
  typealias Profile = RefreshProfileUseCaseExample.Profile
  typealias RefreshProfileUseCase = RefreshProfileUseCaseExample.RefreshProfileUseCase
  typealias ProfileHeader = RefreshProfileUseCaseExample.ProfileHeader
  typealias Spinner = RefreshProfileUseCaseExample.Spinner
  typealias Analytics = RefreshProfileUseCaseExample.Analytics

  @Test func oneRunReachesEveryInterestedObject() async {
    let useCase = RefreshProfileUseCase { Profile(name: "Ada") }
    let header = ProfileHeader()
    let spinner = Spinner()
    let analytics = Analytics()
    useCase.events.subscribe(header)
    useCase.events.subscribe(spinner)
    useCase.events.subscribe(analytics)
    let recorder = EventRecorder(useCase.events)

    useCase.run()
    #expect(analytics.failures == 0)
    await mainQueueRoundTrip()

    #expect(recorder.events == [.started, .finished(Profile(name: "Ada"))])
    #expect(header.title == "Ada")
    #expect(!spinner.isVisible)
    #expect(analytics.failures == 0)
  }

  @Test func aFailureReachesEveryoneToo() async {
    let useCase = RefreshProfileUseCase { throw RefreshProfileUseCaseExample.ProfileServiceError() }
    let header = ProfileHeader()
    let analytics = Analytics()
    useCase.events.subscribe(header)
    useCase.events.subscribe(analytics)

    useCase.run()
    useCase.run()
    #expect(analytics.failures == 2, "an .immediate responder ran after send returned")
    await mainQueueRoundTrip()

    #expect(header.title == "…")
    #expect(analytics.failures == 2)
  }

  @Test func theSpinnerShowsWhenARunStartsAndHidesWhenItFails() async {
    let useCase = RefreshProfileUseCase { throw RefreshProfileUseCaseExample.ProfileServiceError() }
    let spinner = Spinner()
    spinner.handle(event: .started)
    #expect(spinner.isVisible)
    useCase.events.subscribe(spinner)
    useCase.run()
    await mainQueueRoundTrip()
    #expect(!spinner.isVisible)
  }

  @Test func aListenerThatGoesAwayStopsListeningAndTheOthersCarryOn() async {
    let useCase = RefreshProfileUseCase { Profile(name: "Ada") }
    let analytics = Analytics()
    useCase.events.subscribe(analytics)
    weak var weakHeader: ProfileHeader?
    do {
      let header = ProfileHeader()
      weakHeader = header
      useCase.events.subscribe(header)
      #expect(useCase.events.subscriberCount == 2)
    }
    #expect(weakHeader == nil)
    useCase.run()
    await mainQueueRoundTrip()
    #expect(useCase.events.subscriberCount == 1)
    #expect(analytics.failures == 0)
  }
}
