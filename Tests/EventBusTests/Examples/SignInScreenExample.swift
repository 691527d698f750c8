// Example: the sign-in screen, with one observer per concern.
//
// The screen depends on two sources that know nothing about it:
//
// - `SessionState` says whether someone is signed in. It keeps its output private and exposes a read-only view,
//   so only it can change the state. The output replays its last event, so whoever starts observing learns the
//   current state at once instead of waiting for the next change.
// - `KeyboardSource` says when the keyboard shows or hides. In an app this is the package's `KeyboardBroadcaster`
//   (one NotificationCenter observer shared by every screen); here a plain `Output` stands in for it.
//
// The screen never sees `SessionEvent` or `KeyboardEvent`. Each concern has an observer that turns raw events into
// the one thing the screen cares about ("show the form", "lift the button by 260 points") and drops repeats. The
// observers are composed so the screen starts and stops them with one call each, when it appears and disappears.
// When the screen goes away its observers go with it, and nothing is delivered any more. The screen lives on the main
// actor, and its observers deliver there (`on: .main`), so their handlers change its state without a lock.

import EventBus

enum SignInScreenExample {
  // MARK: The sources

  enum SessionEvent: Sendable, Equatable {
    case signedIn(userName: String)
    case signedOut
  }

  final class SessionState: Sendable {
    // `replay: 1`: a late subscriber first receives the current state.
    private let output = Output<SessionEvent>(replay: 1)

    init() {
      output.send(.signedOut)
    }

    /// Subscribe here; only `SessionState` can send.
    var events: ReadOnlyOutput<SessionEvent> { output.readOnly }

    func signIn(as userName: String) { output.send(.signedIn(userName: userName)) }
    func signOut() { output.send(.signedOut) }
  }

  enum KeyboardEvent: Sendable, Equatable {
    case willShow(height: Double)
    case willHide
  }

  /// Stands in for `KeyboardBroadcaster`.
  final class KeyboardSource: Sendable {
    private let output = Output<KeyboardEvent>()

    var events: ReadOnlyOutput<KeyboardEvent> { output.readOnly }

    func show(height: Double) { output.send(.willShow(height: height)) }
    func hide() { output.send(.willHide) }
  }

  // MARK: The screen

  @MainActor final class SignInScreen {
    enum Content: Equatable {
      case signInForm
      case welcome(String)
    }

    /// What the screen shows; `nil` until the session observer first reports.
    private(set) var content: Content?
    /// How far the sign-in button is lifted above the keyboard.
    private(set) var buttonLift: Double = 0
    /// How many times each handler ran, to show that repeats are filtered before they reach the screen.
    private(set) var updates = 0

    private let observers = ObserverComposition()

    init(session: SessionState, keyboard: KeyboardSource) {
      // Concern 1, the session: signed in or out becomes "what to show". `removeDuplicates()` keeps a repeated
      // state from redrawing the screen.
      let sessionContent = session.events
        .map { event -> Content in
          switch event {
          case .signedIn(let userName): .welcome(userName)
          case .signedOut: .signInForm
          }
        }
        .removeDuplicates()
      observers.add(
        EventObserver(sessionContent, responder: self, on: .main) { screen, content in screen.show(content) })

      // Concern 2, the keyboard: its events become "how far to lift the button".
      let lift = keyboard.events
        .map { event -> Double in
          switch event {
          case .willShow(let height): height
          case .willHide: 0
          }
        }
        .removeDuplicates()
      observers.add(EventObserver(lift, responder: self, on: .main) { screen, lift in screen.liftButton(by: lift) })

      // The observers hold the screen weakly and the screen holds the observers: no cycle. When the screen goes
      // away, so do its observers and their subscriptions.
    }

    // The screen's lifecycle drives all its observers at once. Starting twice or stopping twice is harmless.
    func didAppear() { observers.startObserving() }
    func didDisappear() { observers.stopObserving() }

    var isObserving: Bool { observers.isObserving }

    // What the observers call: processed events only.
    private func show(_ content: Content) {
      self.content = content
      updates += 1
    }

    private func liftButton(by lift: Double) {
      buttonLift = lift
      updates += 1
    }
  }
}
