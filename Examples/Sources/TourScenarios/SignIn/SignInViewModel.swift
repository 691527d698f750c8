import EventBus

/// Checks what the user typed and signs in. It knows nothing of its screen: it hears the screen's events in
/// ``handle(event:)`` and answers on ``output``.
@MainActor
public final class SignInViewModel: @MainActor EventViewModel {
  /// What the screen tells the view model.
  public enum ViewEvent: Sendable, Equatable {
    case emailChanged(String)
    case passwordChanged(String)
    case signInTapped
  }

  /// What the view model tells the screen.
  public enum ViewModelEvent: Sendable, Equatable {
    case signInEnabled(Bool)
    case signingIn(Bool)
    case signedIn(name: String)
    case failed(message: String)
  }

  /// Where the screen hears from the view model.
  public let output = Output<ViewModelEvent>()
  private let transcript: Transcript
  private let authenticate: (_ email: String, _ password: String) -> String?
  private var email = ""
  private var password = ""
  private var isSignInEnabled = false

  /// Creates the view model.
  ///
  /// - Parameters:
  ///   - transcript: Where it writes what it receives.
  ///   - authenticate: Returns the user's name, or `nil` when the credentials are wrong.
  public init(transcript: Transcript, authenticate: @escaping (_ email: String, _ password: String) -> String?) {
    self.transcript = transcript
    self.authenticate = authenticate
  }

  /// Called once by `bind(to:)`, after the screen is ready: the button starts disabled.
  public func start() {
    output.send(.signInEnabled(false))
  }

  /// One `switch` for everything the screen can say.
  public func handle(event: ViewEvent) {
    transcript.received("SignInViewModel", "\(event)")
    switch event {
    case .emailChanged(let email):
      self.email = email
      updateSignInEnabled()
    case .passwordChanged(let password):
      self.password = password
      updateSignInEnabled()
    case .signInTapped:
      signIn()
    }
  }

  private func updateSignInEnabled() {
    let isEnabled = email.contains("@") && password.count >= 8
    guard isEnabled != isSignInEnabled else { return }  // tell the screen about changes only
    isSignInEnabled = isEnabled
    output.send(.signInEnabled(isEnabled))
  }

  private func signIn() {
    guard isSignInEnabled else { return }
    output.send(.signingIn(true))
    if let name = authenticate(email, password) {
      output.send(.signedIn(name: name))
    } else {
      output.send(.failed(message: "Wrong email or password"))
    }
    output.send(.signingIn(false))
  }
}
