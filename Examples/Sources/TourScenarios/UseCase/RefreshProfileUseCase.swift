import EventBus

/// A profile as the server returns it.
public struct Profile: Sendable, Equatable, CustomStringConvertible {
  /// The name to show.
  public var name: String

  /// Creates a profile.
  ///
  /// - Parameter name: The name to show.
  public init(name: String) {
    self.name = name
  }

  /// The name.
  public var description: String { name }
}

/// Refreshes the profile and reports through an output instead of a completion closure, so every interested object
/// hears the result, whoever started the refresh.
public final class RefreshProfileUseCase: Sendable {
  /// What a refresh reports.
  public enum Event: Sendable, Equatable {
    case started
    case finished(Profile)
    case cancelled
    case failed(String)
  }

  private let output = Output<Event>()
  private let fetchProfile: @Sendable () async throws -> Profile

  /// Everyone interested subscribes here; only the use case sends.
  public var events: ReadOnlyOutput<Event> { output.readOnly }

  /// Creates the use case.
  ///
  /// - Parameter fetchProfile: Fetches the profile; throws `CancellationError` when its task is cancelled.
  public init(fetchProfile: @escaping @Sendable () async throws -> Profile) {
    self.fetchProfile = fetchProfile
  }

  /// Starts a refresh. `started` is sent before this returns; the rest comes from the returned task.
  ///
  /// - Returns: The refresh's task: cancel it to abandon the refresh, which then reports `cancelled`.
  @discardableResult
  public func start() -> Task<Void, Never> {
    output.send(.started)
    return Task { [output, fetchProfile] in
      do {
        let profile = try await fetchProfile()
        try Task.checkCancellation()
        output.send(.finished(profile))
      } catch is CancellationError {
        output.send(.cancelled)
      } catch {
        output.send(.failed("\(error)"))
      }
    }
  }
}
