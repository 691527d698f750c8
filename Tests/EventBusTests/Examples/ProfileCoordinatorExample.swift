// Example: a coordinator connecting two screens that know nothing of each other.
//
// `UserEditScreen` edits a user's name and has a "change city" button. `CityPickerScreen` lists cities. Neither
// imports, creates or calls the other: each only announces what happened on its own output, and each shows the
// user it is given through an event stream.
//
// The coordinator owns the flow. It subscribes to both screens' outputs, decides what happens next (open the
// picker, close it, finish), and keeps the one true copy of the user in an `Output(replay: 1)`. Every open screen
// subscribes to that output, so one `send` multicasts the updated user to all of them, and a screen opened later
// starts with the current value. A closed screen is released, and its subscriptions end with it.
//
// The screens and the coordinator are UI: they live on the main actor and subscribe with `on: .main`, so their
// handlers change their state without a lock.

import EventBus

enum ProfileCoordinatorExample {
  struct User: Sendable, Equatable {
    var name: String
    var city: String
  }

  // MARK: Screens

  @MainActor final class UserEditScreen {
    enum Event: Sendable, Equatable {
      case nameChanged(String)
      case changeCityTapped
      case doneTapped
    }

    let output = Output<Event>()
    private(set) var shownUser: User?

    init(user: some EventStream<User>) {
      user.subscribe(self, on: .main) { screen, user in screen.shownUser = user }
    }

    // What the user does.
    func type(name: String) { output.send(.nameChanged(name)) }
    func tapChangeCity() { output.send(.changeCityTapped) }
    func tapDone() { output.send(.doneTapped) }
  }

  @MainActor final class CityPickerScreen {
    enum Event: Sendable, Equatable {
      case picked(String)
      case cancelled
    }

    let output = Output<Event>()
    let cities: [String]
    /// The user's current city, highlighted in the list.
    private(set) var highlightedCity: String?

    init(cities: [String], user: some EventStream<User>) {
      self.cities = cities
      user.subscribe(self, on: .main) { screen, user in screen.highlightedCity = user.city }
    }

    func pick(_ city: String) { output.send(.picked(city)) }
    func cancel() { output.send(.cancelled) }
  }

  // MARK: The coordinator

  @MainActor final class ProfileCoordinator {
    enum Event: Sendable, Equatable {
      case finished(User)
    }

    /// Tells whoever started the flow that it is over: the coordinator's own way of "calling back".
    let output = Output<Event>()

    /// The user being edited.
    private(set) var user: User {
      didSet { userUpdates.send(user) }
    }
    /// Every change to `user`, multicast to every open screen; a screen that subscribes later gets the current user.
    private let userUpdates = Output<User>(replay: 1)
    /// The open screens, like a navigation stack. Releasing a screen ends its subscriptions.
    private(set) var stack: [AnyObject] = []
    private let cities: [String]

    init(user: User, cities: [String]) {
      self.user = user
      self.cities = cities
      userUpdates.send(user)
    }

    func start() {
      let editScreen = UserEditScreen(user: userUpdates.readOnly)
      editScreen.output.subscribe(self, on: .main) { coordinator, event in coordinator.handle(event) }
      stack.append(editScreen)
    }

    private func handle(_ event: UserEditScreen.Event) {
      switch event {
      case .nameChanged(let name):
        user.name = name
      case .changeCityTapped:
        let picker = CityPickerScreen(cities: cities, user: userUpdates.readOnly)
        picker.output.subscribe(self, on: .main) { coordinator, event in coordinator.handle(event) }
        stack.append(picker)
      case .doneTapped:
        stack.removeAll()
        output.send(.finished(user))
      }
    }

    private func handle(_ event: CityPickerScreen.Event) {
      switch event {
      case .picked(let city):
        user.city = city  // reaches the picker and the edit screen
        closeTopScreen()
      case .cancelled:
        closeTopScreen()
      }
    }

    private func closeTopScreen() {
      _ = stack.popLast()
    }
  }
}
