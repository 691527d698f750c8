import EventBus

/// Owns the edit-profile flow: it listens to both screens' outputs and decides what comes next. The screens never
/// see each other.
///
/// The one true copy of the user lives in an `Output(replay: 1)`: one `send` reaches every open screen, and a screen
/// opened later starts from the current user.
@MainActor
public final class EditProfileCoordinator {
  /// What the coordinator tells whoever started the flow.
  public enum Event: Sendable, Equatable {
    case finished(User)
  }

  /// Where the app hears that the flow is over.
  public let output = Output<Event>()
  /// The open screens, like a navigation stack. A closed screen is released, and its subscriptions end with it.
  public private(set) var stack: [AnyObject] = []

  private let userUpdates = Output<User>(replay: 1)
  private var user: User {
    didSet { userUpdates.send(user) }
  }
  private let transcript: Transcript

  /// Creates the coordinator for `user`.
  ///
  /// - Parameters:
  ///   - user: The user to edit.
  ///   - transcript: Where the coordinator writes what it receives and decides.
  public init(user: User, transcript: Transcript) {
    self.user = user
    self.transcript = transcript
    userUpdates.send(user)
  }

  /// Opens the first screen.
  public func start() {
    transcript.note("coordinator opens UserEditScreen")
    let editScreen = UserEditScreen(user: userUpdates.readOnly, transcript: transcript)
    editScreen.output.subscribe(self, on: .main) { coordinator, event in coordinator.handle(event) }
    stack.append(editScreen)
  }

  private func handle(_ event: UserEditScreen.Event) {
    transcript.received("EditProfileCoordinator", "UserEditScreen.\(event)")
    switch event {
    case .nameChanged(let name):
      user.name = name
    case .changeCityTapped:
      transcript.note("coordinator opens CityPickerScreen")
      let picker = CityPickerScreen(user: userUpdates.readOnly, transcript: transcript)
      picker.output.subscribe(self, on: .main) { coordinator, event in coordinator.handle(event) }
      stack.append(picker)
    case .doneTapped:
      stack.removeAll()
      transcript.note("coordinator closes the flow")
      output.send(.finished(user))
    }
  }

  private func handle(_ event: CityPickerScreen.Event) {
    transcript.received("EditProfileCoordinator", "CityPickerScreen.\(event)")
    switch event {
    case .picked(let city):
      user.city = city  // one send reaches the picker and the edit screen
      _ = stack.popLast()
    case .cancelled:
      _ = stack.popLast()
    }
  }
}
