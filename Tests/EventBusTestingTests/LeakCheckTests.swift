import Broadcasters
import Dispatch
import EventBusTestSupport
import EventBusTesting
import Foundation
import Testing

/// Keeps what a checked piece of code leaks, so that the test reads the report first and releases it after.
final class Keeper: @unchecked Sendable {
  // Written by the checked code and read by the test, both on the test's task, one after the other.
  var objects: [Any] = []

  /// Cancels the kept tokens and releases everything.
  func release() {
    for case let token as EventSubscription in objects {
      token.cancel()
    }
    objects.removeAll()
  }
}

/// A source that does nothing: a broadcaster over it is connected exactly while someone listens.
struct SilentSource<Event: Sendable>: EventSource {
  func start(emitting sink: EventSink<Event>) -> Int { 0 }
  func stop(_ connection: Int) {}
}

final class IdleResponder<Event: Sendable>: EventResponder, Sendable {
  func handle(event: Event) {}
}

extension Trait where Self == ConditionTrait {
  /// For a test that needs the check to see objects: a build of EventBus that counts them.
  static var countsLiveObjects: Self {
    .enabled(
      if: LeakCheck.isCountingEnabled, "the leak check needs the LiveObjects trait: swift test --traits LiveObjects")
  }
}

@Suite struct LeakCheckTests {
  enum LeakedEvent: Sendable { case tick }
  enum CleanEvent: Sendable { case tick }
  enum QueuedEvent: Sendable { case tick }
  enum BroadcastEvent: Sendable { case tick }
  enum DetachedEvent: Sendable { case tick }

  /// How a report names the event types of this suite: without the module.
  static let prefix = "LeakCheckTests."

  @Test(.countsLiveObjects) func aKeptTokenIsReportedWithWhereItWasSubscribed() {
    let keeper = Keeper()
    var line = 0
    let report = LeakCheck.report {
      let output = Output<LeakedEvent>()
      line = #line + 1
      keeper.objects.append(output.subscribe { _ in })
    }
    #expect(!report.isClean)
    #expect(
      report.leakedObjects.map(\.description) == [
        "Output.Entry<\(Self.prefix)LeakedEvent> subscribed at EventBusTestingTests/LeakCheckTests.swift:\(line)"
      ])
    #expect(report.description.hasPrefix("EventBus leak check: 1 object created here is still alive:\n  Output.Entry<"))
    keeper.release()
  }

  @Test(.countsLiveObjects) func codeThatReleasesEverythingIsClean() {
    let report = LeakCheck.report {
      let output = Output<CleanEvent>()
      let responder = IdleResponder<CleanEvent>()
      output.subscribe(responder)
      let token = output.subscribe { _ in }
      output.send(.tick)
      token.cancel()
    }
    #expect(report.isClean)
    #expect(report.leakedObjects.isEmpty)
    #expect(report.description == "EventBus leak check: nothing leaked.")
  }

  @Test(.countsLiveObjects) func eventTypesAreNamedWithoutTheirModules() {
    // On Linux, `String(reflecting: Date.self)` is `FoundationEssentials.Date`.
    let keeper = Keeper()
    let report = LeakCheck.report {
      keeper.objects.append(Output<Date>())
      keeper.objects.append(Output<[String: Date?]>())
    }
    #expect(Set(report.leakedObjects.map(\.eventType)) == ["Date", "Dictionary<String, Optional<Date>>"])
    keeper.release()
  }

  @Test(.countsLiveObjects) func aQueueSubscriptionLeaksItsLaneToo() async {
    let keeper = Keeper()
    let queue = DispatchQueue(label: "leak-check")
    let report = LeakCheck.report {
      let responder = IdleResponder<QueuedEvent>()
      let output = Output<QueuedEvent>()
      output.subscribe(responder, on: .queue(queue)) { responder, event in responder.handle(event: event) }
      keeper.objects.append(contentsOf: [responder, output] as [Any])
    }
    #expect(report.leakedObjects.map(\.kind) == ["DeliveryLane", "Output", "Output.Entry"])
    #expect(report.leakedObjects.allSatisfy { $0.eventType == "\(Self.prefix)QueuedEvent" })
    keeper.release()
  }

  @Test(.countsLiveObjects) func aBroadcasterLeftConnectedIsReportedWithItsConnection() {
    let keeper = Keeper()
    let report = LeakCheck.report {
      let broadcaster = Broadcaster(source: SilentSource<BroadcastEvent>())
      let responder = IdleResponder<BroadcastEvent>()
      broadcaster.subscribe(responder)
      keeper.objects.append(contentsOf: [broadcaster, responder] as [Any])
    }
    #expect(
      report.leakedObjects.map(\.kind) == [
        "Broadcaster", "Broadcaster.Connection", "Broadcaster.FanOut", "Output", "Output.Entry",
      ])
    keeper.release()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.countsLiveObjects) func theAsyncCheckWaitsForADeliveryStillQueuedOnAnotherThread() async {
    let queue = DispatchQueue(label: "leak-check-blocked")
    let gate = DispatchSemaphore(value: 0)
    queue.async { gate.wait() }
    let quickLook = await LeakCheck.report(waitingUpTo: .zero) {
      let output = Output<QueuedEvent>()
      let token = output.subscribe(on: .queue(queue)) { _ in }
      output.send(.tick)
      token.cancel()
    }
    // The queued block keeps its lane and the cancelled entry until it runs; the queue is still blocked.
    #expect(quickLook.leakedObjects.map(\.kind) == ["DeliveryLane", "Output.Entry"])
    let patientLook = await LeakCheck.report(waitingUpTo: .seconds(60)) {
      let output = Output<QueuedEvent>()
      let token = output.subscribe(on: .queue(queue)) { _ in }
      output.send(.tick)
      token.cancel()
      // Runs the first block, then this one, after the check has begun to wait.
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { gate.signal() }
    }
    #expect(patientLook.isClean, "\(patientLook)")
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.countsLiveObjects) func aLeakThatStaysIsReportedOnceTheWaitIsOver() async {
    let keeper = Keeper()
    let report = await LeakCheck.report(waitingUpTo: .milliseconds(50)) {
      keeper.objects.append(Output<LeakedEvent>())
    }
    #expect(report.leakedObjects.map(\.kind) == ["Output"])
    keeper.release()
  }

  @Test(.countsLiveObjects) func objectsMadeByAnotherTaskAreNotCounted() async {
    // Tests run in parallel: what a task outside the check creates is not the checked code's leak.
    let keeper = Keeper()
    let detached = Task.detached { Output<DetachedEvent>() }
    let report = await LeakCheck.report {
      keeper.objects.append(await detached.value)
    }
    #expect(report.isClean)
    keeper.release()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.countsLiveObjects) func tasksTheCheckedCodeStartsAreCounted() async {
    let keeper = Keeper()
    let report = await LeakCheck.report(waitingUpTo: .milliseconds(50)) {
      let output = await Task { Output<DetachedEvent>() }.value
      keeper.objects.append(output)
    }
    #expect(report.leakedObjects.map(\.kind) == ["Output"])
    keeper.release()
  }

  @Test(.disabled(if: LeakCheck.isCountingEnabled, "this build counts live objects"))
  func withoutCountingTheReportSaysNothingWasChecked() {
    let report = LeakCheck.report {}
    #expect(!report.isCountingEnabled)
    #expect(!report.isClean)
    #expect(report.description.contains("does not count live objects, so nothing was checked"))
    #expect(report.description.contains("traits: [\"LiveObjects\"]"))
  }
}

/// The trait itself, run on a test of its own: it records an issue for a leak, and none for clean code.
@Suite struct LeakCheckTraitTests {
  enum TraitEvent: Sendable { case tick }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.countsLiveObjects) func theTraitFailsATestThatLeaks() async throws {
    let keeper = Keeper()
    let test = try #require(Test.current)
    try await withKnownIssue {
      try await LeakCheckTrait.checksForLeaks(waitingUpTo: .milliseconds(50)).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        let output = Output<TraitEvent>()
        keeper.objects.append(output.subscribe { _ in })
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Output.Entry<") && $0.rawValue.contains("LeakCheckTests.swift:") }
    }
    keeper.release()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.countsLiveObjects) func theTraitPointsTheIssueAtTheSubscribeCallOfWhatLeaked() async throws {
    let keeper = Keeper()
    let test = try #require(Test.current)
    let line = #line + 7
    try await withKnownIssue {
      try await LeakCheckTrait.checksForLeaks(waitingUpTo: .milliseconds(50)).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        let output = Output<TraitEvent>()
        // The next line is `line`.
        keeper.objects.append(output.subscribe { _ in })
      }
    } matching: { issue in
      issue.sourceLocation?.fileID == "EventBusTestingTests/LeakCheckTests.swift"
        && issue.sourceLocation?.line == line
        && issue.sourceLocation?.filePath == test.sourceLocation.filePath
    }
    keeper.release()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.countsLiveObjects) func anIssueAboutObjectsWithoutACallSitePointsAtTheTest() async throws {
    let keeper = Keeper()
    let test = try #require(Test.current)
    try await withKnownIssue {
      try await LeakCheckTrait.checksForLeaks(waitingUpTo: .milliseconds(50)).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        keeper.objects.append(Output<TraitEvent>())
      }
    } matching: { issue in
      issue.sourceLocation == test.sourceLocation
    }
    keeper.release()
  }

  @Test(.countsLiveObjects) func theTraitPassesATestThatDoesNotLeak() async throws {
    // Any issue the trait recorded would fail this test.
    let test = try #require(Test.current)
    try await LeakCheckTrait.checksForLeaks.provideScope(for: test, testCase: Test.Case.current) {
      let output = Output<TraitEvent>()
      let token = output.subscribe { _ in }
      output.send(.tick)
      token.cancel()
    }
  }

  @Test(.countsLiveObjects, .checksForLeaks) func aTestWithTheTraitThatReleasesEverythingPasses() {
    let output = Output<TraitEvent>()
    let responder = IdleResponder<TraitEvent>()
    output.subscribe(responder)
    output.send(.tick)
  }

  @Test(.disabled(if: LeakCheck.isCountingEnabled, "this build counts live objects"))
  func withoutCountingTheTraitFailsSayingSo() async throws {
    let test = try #require(Test.current)
    try await withKnownIssue {
      try await LeakCheckTrait.checksForLeaks.provideScope(for: test, testCase: Test.Case.current) {}
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("does not count live objects") }
    }
  }
}
