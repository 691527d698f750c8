/// Runs every scenario of the tour in order, writing to one transcript.
///
/// - Parameter transcript: Where every object of every scenario writes what it receives.
@MainActor
public func runTour(transcript: Transcript) async {
  await runSignInScenario(transcript: transcript)
  await runKeyboardScenario(transcript: transcript)
  await runCoordinatorScenario(transcript: transcript)
  await runUseCaseScenario(transcript: transcript)
  await runHubScenario(transcript: transcript)
}
