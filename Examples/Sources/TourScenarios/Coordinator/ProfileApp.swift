import EventBus

/// The app around the edit-profile flow: it starts the flow, saves the user when the coordinator reports that the
/// flow is over, and then releases the coordinator and its screens.
@MainActor
public final class ProfileApp {
  /// The users saved by finished flows.
  public private(set) var savedUsers: [User] = []
  private var coordinator: EditProfileCoordinator?
  private let transcript: Transcript

  /// Creates the app.
  ///
  /// - Parameter transcript: Where the app writes what it receives.
  public init(transcript: Transcript) {
    self.transcript = transcript
  }

  /// Starts editing `user`.
  ///
  /// - Parameter user: The user to edit.
  /// - Returns: The flow's coordinator, which the app keeps until the flow finishes.
  public func editProfile(of user: User) -> EditProfileCoordinator {
    let coordinator = EditProfileCoordinator(user: user, transcript: transcript)
    coordinator.output.subscribe(self, on: .main) { app, event in
      app.transcript.received("ProfileApp", "\(event)")
      switch event {
      case .finished(let user):
        app.savedUsers.append(user)
        app.coordinator = nil  // the flow is over: release it and its screens
      }
    }
    self.coordinator = coordinator
    coordinator.start()
    return coordinator
  }
}
