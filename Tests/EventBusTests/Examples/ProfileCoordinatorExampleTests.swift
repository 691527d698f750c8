import Testing

@testable import EventBus

@Suite @MainActor struct ProfileCoordinatorExampleTests {
  typealias User = ProfileCoordinatorExample.User
  typealias ProfileCoordinator = ProfileCoordinatorExample.ProfileCoordinator
  typealias UserEditScreen = ProfileCoordinatorExample.UserEditScreen
  typealias CityPickerScreen = ProfileCoordinatorExample.CityPickerScreen

  static let ada = User(name: "Ada", city: "London")
  static let cities = ["Lisbon", "London", "Paris"]

  @Test func startingShowsTheEditScreenWithTheUser() async throws {
    let coordinator = ProfileCoordinator(user: Self.ada, cities: Self.cities)
    coordinator.start()
    let editScreen = try #require(coordinator.stack.first as? UserEditScreen)
    await mainQueueRoundTrip()
    #expect(coordinator.stack.count == 1)
    #expect(editScreen.shownUser == Self.ada)
  }

  @Test func aPickedCityReachesEveryOpenScreenAndThePickerCloses() async throws {
    let coordinator = ProfileCoordinator(user: Self.ada, cities: Self.cities)
    coordinator.start()
    let editScreen = try #require(coordinator.stack.first as? UserEditScreen)

    editScreen.tapChangeCity()
    await mainQueueRoundTrip()
    #expect(coordinator.stack.count == 2)
    weak var weakPicker: CityPickerScreen?
    do {
      let picker = try #require(coordinator.stack.last as? CityPickerScreen)
      weakPicker = picker
      await mainQueueRoundTrip()
      #expect(picker.highlightedCity == "London")  // opened later, it starts with the current user

      picker.pick("Lisbon")
      await mainQueueRoundTrip()
      // One send reached both screens: the picker (still held here) and the edit screen.
      #expect(picker.highlightedCity == "Lisbon")
      #expect(editScreen.shownUser?.city == "Lisbon")
    }
    #expect(coordinator.stack.count == 1)
    #expect(weakPicker == nil)  // closed, released, and its subscriptions ended with it
  }

  @Test func cancellingThePickerChangesNothing() async throws {
    let coordinator = ProfileCoordinator(user: Self.ada, cities: Self.cities)
    coordinator.start()
    let editScreen = try #require(coordinator.stack.first as? UserEditScreen)
    editScreen.tapChangeCity()
    await mainQueueRoundTrip()
    let picker = try #require(coordinator.stack.last as? CityPickerScreen)
    picker.cancel()
    await mainQueueRoundTrip()
    #expect(coordinator.stack.count == 1)
    #expect(coordinator.user == Self.ada)
    #expect(editScreen.shownUser == Self.ada)
  }

  @Test func doneFinishesTheFlowWithTheEditedUser() async throws {
    let coordinator = ProfileCoordinator(user: Self.ada, cities: Self.cities)
    let finished = EventRecorder(coordinator.output)
    coordinator.start()
    let editScreen = try #require(coordinator.stack.first as? UserEditScreen)

    editScreen.type(name: "Ada Lovelace")
    await mainQueueRoundTrip()
    #expect(editScreen.shownUser?.name == "Ada Lovelace")
    editScreen.tapChangeCity()
    await mainQueueRoundTrip()
    try #require(coordinator.stack.last as? CityPickerScreen).pick("Paris")
    await mainQueueRoundTrip()
    editScreen.tapDone()
    await mainQueueRoundTrip()

    #expect(finished.events == [.finished(User(name: "Ada Lovelace", city: "Paris"))])
    #expect(coordinator.stack.isEmpty)
  }

  @Test func theScreensAreReleasedWhenTheFlowEnds() async throws {
    let coordinator = ProfileCoordinator(user: Self.ada, cities: Self.cities)
    coordinator.start()
    weak var weakEditScreen: UserEditScreen?
    do {
      let editScreen = try #require(coordinator.stack.first as? UserEditScreen)
      weakEditScreen = editScreen
      editScreen.tapDone()
      await mainQueueRoundTrip()
    }
    #expect(weakEditScreen == nil)
  }
}
