import EventBus

/// Shows the profile's name, and a spinner while a refresh runs. Two listeners of one use case that know nothing of
/// each other could as well be two objects; one keeps the tour short.
@MainActor
public final class ProfileHeader {
  /// The name shown.
  public private(set) var title = "…"
  /// Whether the spinner shows.
  public private(set) var isSpinning = false
  private let transcript: Transcript

  /// Creates the header and subscribes it to the use case's events, on the main actor.
  ///
  /// - Parameters:
  ///   - refresh: The use case whose events the header shows.
  ///   - transcript: Where the header writes what it receives.
  public init(refresh: RefreshProfileUseCase, transcript: Transcript) {
    self.transcript = transcript
    refresh.events.subscribe(self, on: .main) { header, event in header.handle(event) }
  }

  private func handle(_ event: RefreshProfileUseCase.Event) {
    transcript.received("ProfileHeader", "\(event)")
    switch event {
    case .started:
      isSpinning = true
    case .finished(let profile):
      title = profile.name
      isSpinning = false
    case .cancelled, .failed:
      isSpinning = false
    }
  }
}
