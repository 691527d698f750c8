import Testing

@testable import EventBus

@Suite struct RefreshProfileUseCaseExampleTests {
  typealias Profile = RefreshProfileUseCaseExample.Profile
  typealias RefreshProfileUseCase = RefreshProfileUseCaseExample.RefreshProfileUseCase
  typealias ProfileHeader = RefreshProfileUseCaseExample.ProfileHeader
  typealias Spinner = RefreshProfileUseCaseExample.Spinner
  typealias Analytics = RefreshProfileUseCaseExample.Analytics

  @Test func oneRunReachesEveryInterestedObject() {
    let useCase = RefreshProfileUseCase { Profile(name: "Ada") }
    let header = ProfileHeader()
    let spinner = Spinner()
    let analytics = Analytics()
    useCase.events.subscribe(header)
    useCase.events.subscribe(spinner)
    useCase.events.subscribe(analytics)
    let recorder = EventRecorder(useCase.events)

    useCase.run()

    #expect(recorder.events == [.started, .finished(Profile(name: "Ada"))])
    #expect(header.title == "Ada")
    #expect(!spinner.isVisible)
    #expect(analytics.failures == 0)
  }

  @Test func aFailureReachesEveryoneToo() {
    let useCase = RefreshProfileUseCase { throw RefreshProfileUseCaseExample.ProfileServiceError() }
    let header = ProfileHeader()
    let analytics = Analytics()
    useCase.events.subscribe(header)
    useCase.events.subscribe(analytics)

    useCase.run()
    useCase.run()

    #expect(header.title == "…")
    #expect(analytics.failures == 2)
  }

  @Test func theSpinnerShowsWhenARunStartsAndHidesWhenItFails() {
    let useCase = RefreshProfileUseCase { throw RefreshProfileUseCaseExample.ProfileServiceError() }
    let spinner = Spinner()
    spinner.handle(event: .started)
    #expect(spinner.isVisible)
    useCase.events.subscribe(spinner)
    useCase.run()
    #expect(!spinner.isVisible)
  }

  @Test func aListenerThatGoesAwayStopsListeningAndTheOthersCarryOn() {
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
    #expect(useCase.events.subscriberCount == 1)
    #expect(analytics.failures == 0)
  }
}
