import Testing
import TourScenarios

/// What each scenario of the tour delivers, to whom, in which order; and what the objects show at the end.
@Suite @MainActor struct TourScenariosTests {
  @Test func signInBindsTheScreenAndTheViewModelInBothDirections() async {
    let transcript = Transcript()
    let screen = await runSignInScenario(transcript: transcript)
    #expect(
      transcript.receipts == [
        "SignInScreen ← signInEnabled(false)",
        "SignInViewModel ← emailChanged(\"ada@example.com\")",
        "SignInViewModel ← passwordChanged(\"analytical\")",
        "SignInScreen ← signInEnabled(true)",
        "SignInViewModel ← signInTapped",
        "SignInScreen ← signingIn(true)",
        "SignInScreen ← signedIn(name: \"Ada\")",
        "SignInScreen ← signingIn(false)",
      ])
    #expect(screen.greeting == "Welcome, Ada")
    #expect(!screen.isSpinning)
    #expect(screen.errorMessage == nil)
  }

  @Test func threeScreensShareOneKeyboardConnectionAndOneDecodePerNotification() async {
    let transcript = Transcript()
    let result = await runKeyboardScenario(transcript: transcript)
    #expect(
      transcript.receipts == [
        "SignInForm ← keyboardWillShow(height: 300)",
        "ChatComposer ← keyboardWillShow(height: 300)",
        "SearchBar ← keyboardWillShow(height: 300)",
        "SignInForm ← keyboardWillHide",
        "ChatComposer ← keyboardWillHide",
        "SearchBar ← keyboardWillHide",
      ])
    #expect(result.connectCount == 1)
    #expect(result.decodedNotifications == 2)  // willShow and willHide, each decoded once for three screens
    #expect(result.decodeFailures == 1)
    #expect(!result.isConnectedAfterScreensLeft)
    #expect(transcript.lines.contains("▸ decoded 1 notification for 3 screens"))
  }

  @Test func theCoordinatorNavigatesFromScreenOutputsAndReleasesTheFinishedFlow() async {
    let transcript = Transcript()
    let result = await runCoordinatorScenario(transcript: transcript)
    #expect(
      transcript.receipts == [
        "UserEditScreen ← user(Ada, London)",
        "EditProfileCoordinator ← UserEditScreen.nameChanged(\"Ada Lovelace\")",
        "UserEditScreen ← user(Ada Lovelace, London)",
        "EditProfileCoordinator ← UserEditScreen.changeCityTapped",
        "CityPickerScreen ← user(Ada Lovelace, London)",
        "EditProfileCoordinator ← CityPickerScreen.picked(\"Paris\")",
        "UserEditScreen ← user(Ada Lovelace, Paris)",
        "CityPickerScreen ← user(Ada Lovelace, Paris)",
        "EditProfileCoordinator ← UserEditScreen.doneTapped",
        "ProfileApp ← finished(Ada Lovelace, Paris)",
      ])
    #expect(transcript.lines.contains("▸ open screens: [\"UserEditScreen\"]"))
    #expect(result.savedUsers == [User(name: "Ada Lovelace", city: "Paris")])
    #expect(result.isFlowReleased)
  }

  @Test func aCancelledRefreshReportsCancelledAndNothingElse() async {
    let transcript = Transcript()
    let result = await runUseCaseScenario(transcript: transcript)
    #expect(
      transcript.receipts == [
        "ProfileHeader ← started",
        "ProfileHeader ← finished(Ada Lovelace)",
        "ProfileHeader ← started",
        "ProfileHeader ← cancelled",
      ])
    #expect(result.title == "Ada Lovelace")
    #expect(!result.isSpinning)
  }

  @Test func theHubCarriesCartChangesAndSignOutAcrossScreens() async {
    let transcript = Transcript()
    let shown = await runHubScenario(transcript: transcript)
    #expect(
      transcript.receipts == [
        "CartBadge ← CartChanged(itemCount: 1)",
        "CartBadge ← CartChanged(itemCount: 2)",
        "CartBadge ← UserSignedOut()",
      ])
    #expect(shown == ["2", ""])
  }

  @Test func theTourRunsEveryScenarioInOrder() async {
    let transcript = Transcript()
    await runTour(transcript: transcript)
    let titles = transcript.lines.filter { $0.hasPrefix("\n== ") }.map { $0.dropFirst(4).prefix(2) }
    #expect(titles == ["1.", "2.", "3.", "4.", "5."])
    #expect(transcript.receipts.last == "CartBadge ← UserSignedOut()")
  }
}
