import EventBus

/// The sign-in screen, without UIKit: it keeps what it would draw in properties. It tells its view model what the
/// user did on ``output`` and renders what the view model says in ``handle(event:)``.
///
/// A screen with real text fields and a button would connect them to ``output`` in `setupBindings()`, which
/// `bind(to:)` calls once; this one has none, so it keeps the protocol's default, which does nothing.
@MainActor
public final class SignInScreen: EventView {
  /// Where the view model hears from the screen.
  public let output = Output<SignInViewModel.ViewEvent>()
  /// The bound view model, kept alive by the screen; `bind(to:)` sets it.
  public var viewModel: AnyEventViewModel<SignInViewModel.ViewEvent, SignInViewModel.ViewModelEvent>?

  /// Whether the Sign In button can be tapped.
  public private(set) var isSignInEnabled = false
  /// Whether the spinner shows.
  public private(set) var isSpinning = false
  /// The greeting shown after signing in.
  public private(set) var greeting: String?
  /// The error shown under the form.
  public private(set) var errorMessage: String?

  private let transcript: Transcript

  /// Creates the screen.
  ///
  /// - Parameter transcript: Where it writes what it receives.
  public init(transcript: Transcript) {
    self.transcript = transcript
  }

  /// Renders one event from the view model.
  public func handle(event: SignInViewModel.ViewModelEvent) {
    transcript.received("SignInScreen", "\(event)")
    switch event {
    case .signInEnabled(let isEnabled): isSignInEnabled = isEnabled
    case .signingIn(let isSigningIn): isSpinning = isSigningIn
    case .signedIn(let name): greeting = "Welcome, \(name)"
    case .failed(let message): errorMessage = message
    }
  }

  // What the user does.

  /// The user edits the email field.
  public func type(email: String) { output.send(.emailChanged(email)) }
  /// The user edits the password field.
  public func type(password: String) { output.send(.passwordChanged(password)) }
  /// The user taps Sign In.
  public func tapSignIn() { output.send(.signInTapped) }
}
