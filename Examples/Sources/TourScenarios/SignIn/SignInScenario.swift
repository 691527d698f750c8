import EventBus

/// Scenario 1: a sign-in screen and its view model, bound through two outputs.
///
/// `bind(to:)` subscribes the view model to the screen's output and the screen to the view model's, both on the main
/// actor; neither holds the other through a subscription, so releasing the screen releases both.
///
/// - Parameter transcript: Where the screen and the view model write what they receive.
/// - Returns: The screen, to inspect what it shows.
@MainActor
@discardableResult
public func runSignInScenario(transcript: Transcript) async -> SignInScreen {
  transcript.begin("1. Sign-in: a screen and its view model, bound through two outputs")
  let screen = SignInScreen(transcript: transcript)
  let viewModel = SignInViewModel(transcript: transcript) { email, password in
    email == "ada@example.com" && password == "analytical" ? "Ada" : nil
  }
  transcript.note("bind the screen to its view model")
  screen.bind(to: viewModel)
  await settle()

  transcript.note("user types an email")
  screen.type(email: "ada@example.com")
  await settle()
  transcript.note("user types a password")
  screen.type(password: "analytical")
  await settle()
  transcript.note("user taps Sign In")
  screen.tapSignIn()
  await settle()
  transcript.note("the screen shows \"\(screen.greeting ?? "")\", spinner \(screen.isSpinning ? "on" : "off")")
  return screen
}
