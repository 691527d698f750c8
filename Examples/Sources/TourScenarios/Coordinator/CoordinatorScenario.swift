import EventBus

/// What the coordinator scenario ended with.
public struct CoordinatorScenarioResult: Sendable, Equatable {
  /// The users the app saved.
  public var savedUsers: [User]
  /// Whether the coordinator and its screens were released once the flow finished.
  public var isFlowReleased: Bool
}

/// Scenario 3: a coordinator decides navigation from its screens' outputs.
///
/// The edit screen asks to change the city; the coordinator opens the picker, which highlights the current city. The
/// user picks Paris: the coordinator updates the user (both open screens hear it) and closes the picker. Done ends
/// the flow: the coordinator reports the user to the app, which saves it and releases the flow.
///
/// - Parameter transcript: Where the screens, the coordinator and the app write what they receive.
/// - Returns: The saved users, and whether the flow was released.
@MainActor
@discardableResult
public func runCoordinatorScenario(transcript: Transcript) async -> CoordinatorScenarioResult {
  transcript.begin("3. Coordinator: navigation decided from the screens' outputs")
  let app = ProfileApp(transcript: transcript)
  weak var weakCoordinator: EditProfileCoordinator?
  weak var weakEditScreen: UserEditScreen?
  do {
    let coordinator = app.editProfile(of: User(name: "Ada", city: "London"))
    weakCoordinator = coordinator
    await settle()
    if let editScreen = coordinator.stack.first as? UserEditScreen {
      weakEditScreen = editScreen
      transcript.note("user types the name \"Ada Lovelace\"")
      editScreen.type(name: "Ada Lovelace")
      await settle()
      transcript.note("user taps Change city")
      editScreen.tapChangeCity()
      await settle()
      if let picker = coordinator.stack.last as? CityPickerScreen {
        transcript.note("user picks Paris")
        picker.pick("Paris")
        await settle()
        transcript.note("open screens: \(coordinator.stack.map { "\(type(of: $0))" })")
      }
      transcript.note("user taps Done")
      editScreen.tapDone()
      await settle()
    }
  }
  let isFlowReleased = weakCoordinator == nil && weakEditScreen == nil
  transcript.note("flow released: \(isFlowReleased)")
  return CoordinatorScenarioResult(savedUsers: app.savedUsers, isFlowReleased: isFlowReleased)
}
