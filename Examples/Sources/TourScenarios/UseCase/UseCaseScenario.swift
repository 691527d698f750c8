import EventBus

/// What the use-case scenario ended with.
public struct UseCaseScenarioResult: Sendable, Equatable {
  /// The header's title after both refreshes.
  public var title: String
  /// Whether the spinner still showed at the end.
  public var isSpinning: Bool
}

/// Scenario 4: a use case reports through an output, and one refresh is cancelled mid-flight.
///
/// The first refresh gets its answer from the server and finishes. The second is still waiting for the server when
/// the user leaves: its task is cancelled, the use case reports `cancelled`, and the spinner stops with the old title
/// still shown. The server answers nothing more, so nothing else arrives.
///
/// - Parameter transcript: Where the header writes what it receives.
/// - Returns: What the header shows at the end.
@MainActor
@discardableResult
public func runUseCaseScenario(transcript: Transcript) async -> UseCaseScenarioResult {
  transcript.begin("4. Use case: a refresh reported through an output, one cancelled mid-flight")
  // The server: each refresh waits for its next answer. Cancelling the waiting task ends the wait.
  let (answers, server) = AsyncStream<Profile>.makeStream()
  let refresh = RefreshProfileUseCase {
    for await profile in answers { return profile }
    throw CancellationError()
  }
  let header = ProfileHeader(refresh: refresh, transcript: transcript)

  transcript.note("refresh starts; the server answers")
  let first = refresh.start()
  server.yield(Profile(name: "Ada Lovelace"))
  await first.value
  await settle()

  transcript.note("refresh starts; the user leaves before the server answers")
  let second = refresh.start()
  second.cancel()
  await second.value
  await settle()
  transcript.note("header shows \"\(header.title)\", spinner \(header.isSpinning ? "on" : "off")")
  return UseCaseScenarioResult(title: header.title, isSpinning: header.isSpinning)
}
