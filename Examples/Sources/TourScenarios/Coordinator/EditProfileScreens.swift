import EventBus

/// The user being edited.
public struct User: Sendable, Equatable, CustomStringConvertible {
  /// The user's name.
  public var name: String
  /// The city the user lives in.
  public var city: String

  /// Creates a user.
  ///
  /// - Parameters:
  ///   - name: The user's name.
  ///   - city: The city the user lives in.
  public init(name: String, city: String) {
    self.name = name
    self.city = city
  }

  /// `"Ada, London"`.
  public var description: String { "\(name), \(city)" }
}

/// Edits the user's name and offers a "change city" button. It knows nothing of the city picker: it only says
/// what happened on ``output``, and shows the user it is given.
@MainActor
public final class UserEditScreen {
  /// What the user did on this screen.
  public enum Event: Sendable, Equatable {
    case nameChanged(String)
    case changeCityTapped
    case doneTapped
  }

  /// Where the coordinator hears from the screen.
  public let output = Output<Event>()
  /// The user the screen shows.
  public private(set) var shownUser: User?
  private let transcript: Transcript

  /// Creates the screen and subscribes it to the user it shows.
  ///
  /// - Parameters:
  ///   - user: The user, and each change to it.
  ///   - transcript: Where the screen writes what it receives.
  public init(user: some EventStream<User>, transcript: Transcript) {
    self.transcript = transcript
    user.subscribe(self, on: .main) { screen, user in
      screen.shownUser = user
      screen.transcript.received("UserEditScreen", "user(\(user))")
    }
  }

  /// The user edits the name field.
  public func type(name: String) { output.send(.nameChanged(name)) }
  /// The user taps "Change city".
  public func tapChangeCity() { output.send(.changeCityTapped) }
  /// The user taps Done.
  public func tapDone() { output.send(.doneTapped) }
}

/// Lists cities and highlights the user's. It knows nothing of the edit screen.
@MainActor
public final class CityPickerScreen {
  /// What the user did on this screen.
  public enum Event: Sendable, Equatable {
    case picked(String)
    case cancelled
  }

  /// Where the coordinator hears from the screen.
  public let output = Output<Event>()
  /// The city highlighted in the list: the user's.
  public private(set) var highlightedCity: String?
  private let transcript: Transcript

  /// Creates the screen and subscribes it to the user whose city it highlights.
  ///
  /// - Parameters:
  ///   - user: The user, and each change to it.
  ///   - transcript: Where the screen writes what it receives.
  public init(user: some EventStream<User>, transcript: Transcript) {
    self.transcript = transcript
    user.subscribe(self, on: .main) { screen, user in
      screen.highlightedCity = user.city
      screen.transcript.received("CityPickerScreen", "user(\(user))")
    }
  }

  /// The user picks a city.
  public func pick(_ city: String) { output.send(.picked(city)) }
  /// The user backs out.
  public func cancel() { output.send(.cancelled) }
}
