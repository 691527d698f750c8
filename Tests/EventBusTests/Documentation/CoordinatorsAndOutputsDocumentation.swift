import EventBus
import Testing

// The code of CoordinatorsAndOutputs.md: a profile-editing flow whose screens know nothing of each other, a use case
// that reports through an output, and an EventHub for app-wide events.

extension Documentation {
  @Suite struct CoordinatorsAndOutputs {
    // snippet: coordinators-user
    struct User: Sendable, Equatable {
      var name: String
      var city: String
    }
    // end-snippet

    // MARK: Screens

    // snippet: coordinators-edit-screen
    @MainActor final class UserEditScreen {
      enum Event: Sendable {
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
    // end-snippet

    // snippet: coordinators-picker-screen
    @MainActor final class CityPickerScreen {
      enum Event: Sendable {
        case picked(String)
        case cancelled
      }

      let output = Output<Event>()
      private(set) var highlightedCity: String?

      init(user: some EventStream<User>) {
        user.subscribe(self, on: .main) { screen, user in screen.highlightedCity = user.city }
      }

      func pick(_ city: String) { output.send(.picked(city)) }
      func cancel() { output.send(.cancelled) }
    }
    // end-snippet

    // MARK: The coordinator

    // snippet: coordinators-coordinator
    @MainActor final class EditProfileCoordinator {
      enum Event: Sendable, Equatable {
        case finished(User)
      }

      let output = Output<Event>()
      private(set) var screens: [AnyObject] = []  // the navigation stack
      private let userUpdates = Output<User>(replay: 1)
      private var user: User {
        didSet { userUpdates.send(user) }  // one send reaches every open screen
      }

      init(user: User) {
        self.user = user
        userUpdates.send(user)
      }

      func start() {
        let editScreen = UserEditScreen(user: userUpdates.readOnly)
        editScreen.output.subscribe(self, on: .main) { coordinator, event in coordinator.handle(event) }
        screens.append(editScreen)
      }

      private func handle(_ event: UserEditScreen.Event) {
        switch event {
        case .nameChanged(let name):
          user.name = name
        case .changeCityTapped:
          let picker = CityPickerScreen(user: userUpdates.readOnly)
          picker.output.subscribe(self, on: .main) { coordinator, event in coordinator.handle(event) }
          screens.append(picker)
        case .doneTapped:
          screens.removeAll()
          output.send(.finished(user))
        }
      }

      private func handle(_ event: CityPickerScreen.Event) {
        switch event {
        case .picked(let city):
          user.city = city
          screens.removeLast()
        case .cancelled:
          screens.removeLast()
        }
      }
    }
    // end-snippet

    // snippet: coordinators-app
    @MainActor final class App {
      private(set) var savedUsers: [User] = []
      private var coordinator: EditProfileCoordinator?

      func editProfile(of user: User) -> EditProfileCoordinator {
        let coordinator = EditProfileCoordinator(user: user)
        coordinator.output.subscribe(self, on: .main) { app, event in
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
    // end-snippet

    @Test @MainActor func theCoordinatorRunsTheFlowAndEveryOpenScreenSeesTheUser() async throws {
      // snippet: coordinators-use
      let app = App()
      let coordinator = app.editProfile(of: User(name: "Ada", city: "London"))
      let editScreen = try #require(coordinator.screens.last as? UserEditScreen)

      editScreen.type(name: "Ada Lovelace")
      editScreen.tapChangeCity()
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      // snippet: coordinators-use-picker
      let picker = try #require(coordinator.screens.last as? CityPickerScreen)
      // picker.highlightedCity == "London": it started from the current user

      picker.pick("Paris")
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(editScreen.shownUser == User(name: "Ada Lovelace", city: "Paris"))
      #expect(coordinator.screens.count == 1, "the picker is still open")
      // snippet: coordinators-use-done
      // editScreen.shownUser == User(name: "Ada Lovelace", city: "Paris"); the picker is closed

      editScreen.tapDone()
      // app.savedUsers == [User(name: "Ada Lovelace", city: "Paris")]
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(picker.highlightedCity == "Paris")
      #expect(coordinator.screens.isEmpty)
      #expect(app.savedUsers == [User(name: "Ada Lovelace", city: "Paris")])
    }

    @Test @MainActor func theFinishedFlowIsReleasedWithItsScreens() async throws {
      let app = App()
      weak var weakCoordinator: EditProfileCoordinator?
      weak var weakScreen: UserEditScreen?
      do {
        let coordinator = app.editProfile(of: User(name: "Ada", city: "London"))
        let editScreen = try #require(coordinator.screens.last as? UserEditScreen)
        weakCoordinator = coordinator
        weakScreen = editScreen
        editScreen.tapDone()
        await Documentation.mainQueueRoundTrip()
      }
      #expect(weakCoordinator == nil)
      #expect(weakScreen == nil)
      #expect(app.savedUsers.count == 1)
    }

    // MARK: A use case that reports through an output

    // snippet: coordinators-use-case
    final class RefreshProfileUseCase: Sendable {
      enum Event: Sendable, Equatable {
        case started
        case finished(User)
        case failed
      }

      private let output = Output<Event>()
      private let fetchUser: @Sendable () throws -> User
      var events: ReadOnlyOutput<Event> { output.readOnly }

      init(fetchUser: @escaping @Sendable () throws -> User) {
        self.fetchUser = fetchUser
      }

      func run() {
        output.send(.started)
        do {
          output.send(.finished(try fetchUser()))
        } catch {
          output.send(.failed)
        }
      }
    }
    // end-snippet

    // snippet: coordinators-use-case-listeners
    @MainActor final class ProfileHeader: MainActorEventResponder {
      private(set) var title = ""

      func handle(event: RefreshProfileUseCase.Event) {
        if case .finished(let user) = event {
          title = user.name
        }
      }
    }

    @MainActor final class RefreshSpinner: MainActorEventResponder {
      private(set) var isSpinning = false

      func handle(event: RefreshProfileUseCase.Event) {
        isSpinning = event == .started
      }
    }
    // end-snippet

    @Test @MainActor func everyInterestedObjectHearsTheResult() async {
      // snippet: coordinators-use-case-use
      let refresh = RefreshProfileUseCase { User(name: "Ada Lovelace", city: "London") }
      let header = ProfileHeader()
      let spinner = RefreshSpinner()
      refresh.events.subscribe(header)
      refresh.events.subscribe(spinner)

      refresh.run()  // whoever calls it, both hear the result, on the main actor
      // header.title == "Ada Lovelace", spinner.isSpinning == false
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(header.title == "Ada Lovelace")
      #expect(!spinner.isSpinning)
    }

    // MARK: EventBus

    // snippet: coordinators-hub-events
    struct CartChanged: Sendable {
      let itemCount: Int
    }

    struct UserSignedOut: Sendable {}
    // end-snippet

    // snippet: coordinators-hub-listeners
    @MainActor final class CartBadge {
      private(set) var text = ""

      init(hub: EventHub) {
        hub.subscribe(CartChanged.self, self, on: .main) { badge, event in
          badge.text = event.itemCount == 0 ? "" : "\(event.itemCount)"
        }
        hub.subscribe(UserSignedOut.self, self, on: .main) { badge, _ in badge.text = "" }
      }
    }

    final class Cart {
      private let hub: EventHub
      private var items: [String] = []

      init(hub: EventHub) { self.hub = hub }

      func add(_ item: String) {
        items.append(item)
        hub.post(CartChanged(itemCount: items.count))
      }
    }
    // end-snippet

    @Test @MainActor func theHubConnectsObjectsThatShareOnlyAnEventType() async {
      // snippet: coordinators-hub-use
      let hub = EventHub()  // one per app, injected: there is no shared instance
      let badge = CartBadge(hub: hub)
      let cart = Cart(hub: hub)

      cart.add("Tea")
      cart.add("Scones")
      // badge.text == "2"
      hub.post(UserSignedOut())
      // badge.text == ""
      // end-snippet
      await Documentation.mainQueueRoundTrip()
      #expect(badge.text == "")
      cart.add("Jam")
      await Documentation.mainQueueRoundTrip()
      #expect(badge.text == "3")
      #expect(hub.subscriberCount(for: CartChanged.self) == 1)
    }

    // snippet: coordinators-hub-routing-types
    protocol Announcement: Sendable {
      var text: String { get }
    }

    struct Banner: Announcement {
      let text: String
    }

    func relay<Event: Sendable>(_ event: Event, on hub: EventHub) {
      hub.post(event)  // `Event` is the type of the value, even when the caller held it as an existential
    }

    func announce<Event: Announcement>(_ event: Event, on hub: EventHub) {
      hub.post(event, as: (any Announcement).self)
    }
    // end-snippet

    @Test func theHubRoutesByTheStaticTypeAndAGenericFunctionOpensAnExistential() {
      let hub = EventHub()
      let received = Log<String>()
      let tokens = [
        hub.subscribe((any Announcement).self) { received.append("any Announcement: \($0.text)") },
        hub.subscribe(Banner.self) { received.append("Banner: \($0.text)") },
      ]
      // snippet: coordinators-hub-routing-use
      let announcement: any Announcement = Banner(text: "Closing at six")
      hub.post(announcement)  // to the subscribers of (any Announcement).self
      relay(announcement, on: hub)  // to the subscribers of Banner.self: Swift opened the existential
      announce(Banner(text: "Closing at six"), on: hub)  // to the subscribers of (any Announcement).self
      // end-snippet
      #expect(
        received.elements == [
          "any Announcement: Closing at six", "Banner: Closing at six", "any Announcement: Closing at six",
        ])
      withExtendedLifetime(tokens) {}
    }
  }
}
