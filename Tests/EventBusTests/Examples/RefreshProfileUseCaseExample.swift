// Example: a use case that reports its result through an output instead of a completion closure.
//
// The usual shape is
//
//     func refreshProfile(completion: @escaping (Result<Profile, Error>) -> Void)
//
// which reaches exactly one caller. But a refresh interests several objects at once: the header shows the new name,
// a spinner shows while it runs, analytics counts failures. With a completion closure the caller has to forward the
// result to each of them by hand, and whoever did not start the refresh never hears of it.
//
// With an output, the use case announces `started`, `finished` and `failed` to everyone who subscribed, whoever
// triggers it. Each listener subscribes itself, is held weakly, and stops listening when it goes away; the use case
// never knows who or how many they are.
//
// Each listener also chooses where its handler runs. The header and the spinner are UI: they live on the main actor
// as `MainActorEventResponder`s. Analytics is not: its handler runs on whichever thread runs the use case, so it is
// `Sendable`, with its counter behind a lock.

import EventBus
import Foundation

enum RefreshProfileUseCaseExample {
  struct Profile: Sendable, Equatable {
    var name: String
  }

  struct ProfileServiceError: Error {}

  final class RefreshProfileUseCase: Sendable {
    enum Event: Sendable, Equatable {
      case started
      case finished(Profile)
      case failed
    }

    private let output = Output<Event>()
    private let fetchProfile: @Sendable () throws -> Profile

    /// Everyone interested subscribes here; only the use case sends.
    var events: ReadOnlyOutput<Event> { output.readOnly }

    init(fetchProfile: @escaping @Sendable () throws -> Profile) {
      self.fetchProfile = fetchProfile
    }

    /// Runs the refresh. It could as well run on a background queue: each listener chooses where its handler runs
    /// (`on: .main` for the ones that touch the UI).
    func run() {
      output.send(.started)
      do {
        output.send(.finished(try fetchProfile()))
      } catch {
        output.send(.failed)
      }
    }
  }

  // MARK: Three listeners that know nothing of each other

  /// Shows the profile's name.
  @MainActor final class ProfileHeader: MainActorEventResponder {
    private(set) var title = "…"

    func handle(event: RefreshProfileUseCase.Event) {
      if case .finished(let profile) = event {
        title = profile.name
      }
    }
  }

  /// Visible while a refresh runs.
  @MainActor final class Spinner: MainActorEventResponder {
    private(set) var isVisible = false

    func handle(event: RefreshProfileUseCase.Event) {
      isVisible = event == .started
    }
  }

  /// Counts failed refreshes.
  final class Analytics: EventResponder {
    // handle(event:) runs on whichever thread runs the use case, so the count is in a lock box.
    private let failureCount = Locked(0)

    var failures: Int { failureCount.withLock { $0 } }

    func handle(event: RefreshProfileUseCase.Event) {
      if event == .failed {
        failureCount.withLock { $0 += 1 }
      }
    }
  }
}
