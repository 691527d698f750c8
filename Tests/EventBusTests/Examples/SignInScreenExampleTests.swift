import Testing

@testable import EventBus

// Serialized: the last test counts live subscriptions of the example's event types, which the other tests of this
// suite also create.
@Suite(.serialized) @MainActor struct SignInScreenExampleTests {
  typealias SessionState = SignInScreenExample.SessionState
  typealias KeyboardSource = SignInScreenExample.KeyboardSource
  typealias SignInScreen = SignInScreenExample.SignInScreen

  @Test func whenTheScreenAppearsItShowsTheCurrentSessionStateWithoutWaitingForAChange() async {
    let session = SessionState()
    session.signIn(as: "Ada")
    let screen = SignInScreen(session: session, keyboard: KeyboardSource())
    await mainQueueRoundTrip()
    #expect(screen.content == nil)
    screen.didAppear()
    await mainQueueRoundTrip()
    #expect(screen.content == .welcome("Ada"))
  }

  @Test func theScreenReceivesOnlyProcessedEventsAndNoRepeats() async {
    let session = SessionState()
    let keyboard = KeyboardSource()
    let screen = SignInScreen(session: session, keyboard: keyboard)
    screen.didAppear()
    await mainQueueRoundTrip()
    #expect(screen.content == .signInForm)
    #expect(screen.updates == 1)

    session.signOut()  // the same state again: filtered out before it reaches the screen
    keyboard.show(height: 260)
    keyboard.show(height: 260)
    await mainQueueRoundTrip()
    #expect(screen.buttonLift == 260)
    #expect(screen.updates == 2)

    session.signIn(as: "Ada")
    keyboard.hide()
    await mainQueueRoundTrip()
    #expect(screen.content == .welcome("Ada"))
    #expect(screen.buttonLift == 0)
    #expect(screen.updates == 4)
  }

  @Test func aHiddenScreenReceivesNothingAndCatchesUpWhenItAppearsAgain() async {
    let session = SessionState()
    let keyboard = KeyboardSource()
    let screen = SignInScreen(session: session, keyboard: keyboard)
    screen.didAppear()
    await mainQueueRoundTrip()
    screen.didDisappear()
    #expect(!screen.isObserving)
    #expect(session.events.subscriberCount == 0)
    #expect(keyboard.events.subscriberCount == 0)

    session.signIn(as: "Grace")
    keyboard.show(height: 300)
    await mainQueueRoundTrip()
    #expect(screen.content == .signInForm)
    #expect(screen.buttonLift == 0)

    screen.didAppear()
    await mainQueueRoundTrip()
    #expect(screen.content == .welcome("Grace"))  // the session replays its current state
    #expect(screen.buttonLift == 0)  // the keyboard does not replay: only later events arrive
  }

  @Test func whenTheScreenGoesAwayItStopsReceivingAndNothingIsLeft() async {
    let session = SessionState()
    let keyboard = KeyboardSource()
    weak var weakScreen: SignInScreen?
    do {
      let screen = SignInScreen(session: session, keyboard: keyboard)
      weakScreen = screen
      screen.didAppear()  // and never told to disappear
      await mainQueueRoundTrip()
      #expect(session.events.subscriberCount == 1)
      #expect(keyboard.events.subscriberCount == 1)
    }
    #expect(weakScreen == nil)
    session.signIn(as: "Ada")
    keyboard.show(height: 260)
    await mainQueueRoundTrip()
    #expect(session.events.subscriberCount == 0)
    #expect(keyboard.events.subscriberCount == 0)
    #expect(LiveObjects.count("Output.Entry", for: SignInScreenExample.SessionEvent.self) == 0)
    #expect(LiveObjects.count("Output.Entry", for: SignInScreenExample.KeyboardEvent.self) == 0)
  }
}
