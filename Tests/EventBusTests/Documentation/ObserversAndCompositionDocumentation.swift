import EventBus
import Foundation
import Testing

// The code of ObserversAndComposition.md: a sign-in screen with one observer per concern.

extension Documentation {
  @Suite struct ObserversAndComposition {
    // MARK: Sources

    // snippet: observers-session
    enum SessionEvent: Sendable, Equatable {
      case signedIn(userName: String)
      case signedOut
    }

    final class Session: Sendable {
      private let output = Output<SessionEvent>(replay: 1)  // late subscribers get the current state
      var events: ReadOnlyOutput<SessionEvent> { output.readOnly }

      init() { output.send(.signedOut) }

      func signIn(as userName: String) { output.send(.signedIn(userName: userName)) }
      func signOut() { output.send(.signedOut) }
    }
    // end-snippet

    // snippet: observers-keyboard
    enum KeyboardEvent: Sendable, Equatable {
      case willShow(height: Double)
      case willHide
    }
    // end-snippet

    // snippet: observers-text-field
    final class TextField: Sendable {
      let text = Output<String>()
      func type(_ newText: String) { text.send(newText) }
    }
    // end-snippet

    // MARK: The screen

    // snippet: observers-screen
    @MainActor final class SignInScreen {
      let emailField = TextField()
      let passwordField = TextField()
      private(set) var greeting: String?
      private(set) var buttonLift = 0.0
      private(set) var isSignInEnabled = false
      private let observers = ObserverComposition()

      init(session: Session, keyboard: ReadOnlyOutput<KeyboardEvent>) {
        // Concern 1: who is signed in.
        observers.add(
          EventObserver(session.events, responder: self, on: .main) { screen, event in
            switch event {
            case .signedIn(let userName): screen.greeting = "Welcome, \(userName)"
            case .signedOut: screen.greeting = nil
            }
          })

        // Concern 2: how far to lift the sign-in button above the keyboard.
        let lift = keyboard.map { event -> Double in
          if case .willShow(let height) = event { return height }
          return 0
        }
        observers.add(
          EventObserver(lift.removeDuplicates(), responder: self, on: .main) { screen, lift in
            screen.buttonLift = lift
          })

        // Concern 3: whether the form can be submitted.
        observers.add(SignInFormObserver(email: emailField, password: passwordField, screen: self))
      }

      func didAppear() { observers.startObserving() }
      func didDisappear() { observers.stopObserving() }

      func setSignInEnabled(_ isEnabled: Bool) { isSignInEnabled = isEnabled }
    }
    // end-snippet

    // snippet: observers-custom
    /// Enables the sign-in button when both fields are filled in.
    @MainActor final class SignInFormObserver: @preconcurrency Observer {
      private let email: TextField
      private let password: TextField
      private weak var screen: SignInScreen?
      private var fields = (email: "", password: "")
      private var subscriptions: [ResponderSubscription] = []

      init(email: TextField, password: TextField, screen: SignInScreen) {
        self.email = email
        self.password = password
        self.screen = screen
      }

      func startObserving() {
        // Idempotent; a screen that is gone stays stopped.
        guard subscriptions.isEmpty, screen != nil else { return }
        subscriptions = [
          email.text.subscribe(self, on: .main) { observer, text in
            observer.update(email: text)
          },
          password.text.subscribe(self, on: .main) { observer, text in
            observer.update(password: text)
          },
        ]
      }

      func stopObserving() {
        for subscription in subscriptions {
          subscription.cancel()
        }
        subscriptions = []
      }

      private func update(email: String? = nil, password: String? = nil) {
        guard let screen else { return stopObserving() }  // the screen is gone: stop for good
        fields.email = email ?? fields.email
        fields.password = password ?? fields.password
        screen.setSignInEnabled(!fields.email.isEmpty && !fields.password.isEmpty)
      }
    }
    // end-snippet

    @Test @MainActor func theScreenReceivesOnlyProcessedEventsWhileVisible() async {
      // snippet: observers-use
      let session = Session()
      let keyboard = Output<KeyboardEvent>()
      let screen = SignInScreen(session: session, keyboard: keyboard.readOnly)

      screen.didAppear()
      keyboard.send(.willShow(height: 260))
      screen.emailField.type("ada@example.com")
      screen.passwordField.type("analytical")
      session.signIn(as: "Ada")
      // on the main actor: screen.buttonLift == 260, screen.isSignInEnabled,
      // screen.greeting == "Welcome, Ada"
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(screen.greeting == "Welcome, Ada")
      #expect(screen.isSignInEnabled)
      #expect(screen.buttonLift == 260)
      // snippet: observers-disappear
      screen.didDisappear()
      keyboard.send(.willHide)
      // screen.buttonLift == 260: a screen that is not visible hears nothing
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(screen.buttonLift == 260)
      #expect(keyboard.subscriberCount == 0)
      #expect(screen.emailField.text.subscriberCount == 0)
    }

    @Test @MainActor func restartingCatchesUpThroughReplayAndDoesNotDoubleDeliveries() async {
      let session = Session()
      let keyboard = Output<KeyboardEvent>()
      let screen = SignInScreen(session: session, keyboard: keyboard.readOnly)
      screen.didAppear()
      await Documentation.mainQueueRoundTrip()
      screen.didDisappear()
      session.signIn(as: "Ada")
      await Documentation.mainQueueRoundTrip()
      #expect(screen.greeting == nil)
      // snippet: observers-restart
      screen.didAppear()  // the session replays its current state to the screen: the greeting catches up
      screen.didAppear()  // starting twice changes nothing
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(screen.greeting == "Welcome, Ada")
      #expect(session.events.subscriberCount == 1)
      #expect(keyboard.subscriberCount == 1)
      #expect(screen.emailField.text.subscriberCount == 1)
    }

    @Test @MainActor func theObserversGoAwayWithTheScreen() {
      let session = Session()
      let keyboard = Output<KeyboardEvent>()
      do {
        let screen = SignInScreen(session: session, keyboard: keyboard.readOnly)
        screen.didAppear()
        #expect(keyboard.subscriberCount == 1)
      }
      // The screen owned the composition, which owned the observers, which owned the subscriptions.
      #expect(keyboard.subscriberCount == 0)
      #expect(session.events.subscriberCount == 0)
    }

    // MARK: Event responders

    // snippet: observers-responder
    final class SignInAnalytics: EventResponder {
      // handle(event:) runs on whichever thread sends, so the count is in a lock box.
      private let signInCount = Locked(0)

      var signIns: Int { signInCount.withLock { $0 } }

      func handle(event: SessionEvent) {
        if case .signedIn = event {
          signInCount.withLock { $0 += 1 }
        }
      }
    }
    // end-snippet

    // snippet: observers-main-actor-responder
    @MainActor final class AccountBadge: MainActorEventResponder {
      private(set) var initials = ""

      func handle(event: SessionEvent) {
        switch event {
        case .signedIn(let userName): initials = String(userName.prefix(1))
        case .signedOut: initials = ""
        }
      }
    }
    // end-snippet

    @Test @MainActor func anEventResponderNeedsNoHandler() async {
      // snippet: observers-responder-use
      let session = Session()
      let analytics = SignInAnalytics()
      let badge = AccountBadge()
      let observers = ObserverComposition(
        EventObserver(session.events, responder: analytics),  // handle(event:) on the sending thread
        EventObserver(session.events, responder: badge)  // handle(event:) on the main actor
      )

      observers.startObserving()
      session.signIn(as: "Ada")
      // analytics.signIns == 1, badge.initials == "A"
      // end-snippet
      await Documentation.waitUntil { badge.initials == "A" }
      #expect(analytics.signIns == 1)
      #expect(badge.initials == "A")
    }

    // MARK: Teardown

    @MainActor final class ProfileScreen {
      var names: [String] = []
    }

    @Test @MainActor func anObserverStopsItselfWhenItsResponderGoesAway() {
      let session = Session()
      // snippet: observers-teardown
      var screen: ProfileScreen? = ProfileScreen()
      let observer = EventObserver(session.events, responder: screen!, on: .main) { screen, event in
        if case .signedIn(let userName) = event {
          screen.names.append(userName)
        }
      }
      observer.startObserving()

      screen = nil
      // observer.isObserving == false: with its screen gone, the observer has stopped
      observer.startObserving()  // does nothing: there is nobody left to deliver to
      // end-snippet
      #expect(!observer.isObserving)
      #expect(session.events.subscriberCount == 0)
    }
  }
}
