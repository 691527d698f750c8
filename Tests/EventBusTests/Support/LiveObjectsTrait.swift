import Testing

@testable import EventBus

extension Trait where Self == ConditionTrait {
  /// For a test that reads a positive live-object count: it runs only in a build that counts them. Tests that expect
  /// a count of zero run in every build, and check weak references as well.
  static var countsLiveObjects: Self {
    .enabled(
      if: LiveObjects.isEnabled,
      "live-object counts need the LiveObjects trait: swift test --traits LiveObjects"
    )
  }
}
