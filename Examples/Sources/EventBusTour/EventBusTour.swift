import TourScenarios

/// A guided tour of EventBus: five scenarios, each printing what every object receives.
///
/// Runs on the main actor, from an async `main`, so the main queue (where `.main` deliveries go) keeps running.
@main
struct EventBusTour {
  static func main() async {
    print("EventBus tour: who receives what. Lines starting with ▸ are what the user or the system does.")
    await runTour(transcript: Transcript(echoes: true))
  }
}
