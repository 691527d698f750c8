#if canImport(XCTest)
  import EventBusTesting
  import XCTest

  /// `assertNoLeakedEventBusObjects` in an XCTest test: clean code passes (a failure would fail this test).
  final class XCTestLeakCheckTests: XCTestCase {
    enum XCTestEvent: Sendable { case tick }

    func testCodeThatReleasesEverythingPasses() throws {
      try XCTSkipUnless(LeakCheck.isCountingEnabled, "the leak check needs the LiveObjects trait")
      assertNoLeakedEventBusObjects {
        let output = Output<XCTestEvent>()
        let token = output.subscribe { _ in }
        output.send(.tick)
        token.cancel()
      }
    }

    func testAsyncCodeThatReleasesEverythingPasses() async throws {
      try XCTSkipUnless(LeakCheck.isCountingEnabled, "the leak check needs the LiveObjects trait")
      guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else { throw XCTSkip("needs Duration") }
      await assertNoLeakedEventBusObjects {
        let output = Output<XCTestEvent>()
        let recorder = EventRecorder(output)
        output.send(.tick)
        let arrived = await recorder.waitForEvents(count: 1, timeout: .seconds(30))
        XCTAssertTrue(arrived)
      }
    }
  }
#endif

#if canImport(XCTest)
  import Broadcasters
  import EventBusTesting
  import XCTest

  /// The kit's waits in an XCTest test: on a timeout they fail the test through XCTest, and end.
  final class XCTestWaitTests: XCTestCase {
    enum XCTestEvent: Sendable, Equatable { case loading }

    /// The failures the test expects, instead of failing it; `nil` while none is expected.
    private var expectedFailures: [String]?

    #if canImport(Darwin)
      override func record(_ issue: XCTIssue) {
        guard expectedFailures != nil else { return super.record(issue) }
        expectedFailures?.append(issue.compactDescription)
      }
    #else
      override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
      ) {
        guard expectedFailures != nil else {
          return super.recordFailure(
            withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        expectedFailures?.append(description)
      }
    #endif

    /// Runs `body`, and returns the failures it recorded rather than failing the test with them.
    private func failures(of body: () async -> Void) async -> [String] {
      expectedFailures = []
      await body()
      defer { expectedFailures = nil }
      return expectedFailures ?? []
    }

    func testAClockWaitThatIsNeverMetFailsAndEnds() async throws {
      guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else { throw XCTSkip("needs Duration") }
      let clock = ManualClock()
      var met = true
      let failures = await failures {
        met = await clock.waitUntil(sleeperCount: 2, timeout: .milliseconds(20))
      }
      XCTAssertFalse(met)
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(failures.first?.contains("waited 20 ms for exactly 2 sleepers; found no sleeper") == true)
    }

    func testARecorderWaitThatIsNeverMetFailsSayingWhatArrived() async throws {
      guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else { throw XCTSkip("needs Duration") }
      let output = Output<XCTestEvent>()
      let recorder = EventRecorder(output)
      output.send(.loading)
      var arrived = true
      let failures = await failures {
        arrived = await recorder.expectEvents(count: 2, timeout: .milliseconds(20))
      }
      XCTAssertFalse(arrived)
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(failures.first?.contains("received 1 of 2 events within 20 ms: [loading]") == true)
    }

    func testEveryOtherWaitOfTheKitFailsThroughXCTestAndEnds() async throws {
      guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else { throw XCTSkip("needs Duration") }
      let short = Duration.milliseconds(20)
      let clock = ManualClock()
      let output = Output<XCTestEvent>()
      let recorder = EventRecorder(output)
      output.send(.loading)
      let queue = DispatchQueue(label: "xctest-waits")
      let gate = DispatchSemaphore(value: 0)
      let token = output.subscribe(on: .queue(queue)) { _ in }
      queue.async { gate.wait() }
      output.send(.loading)
      let ticks = Broadcaster(source: TimerSource(every: .seconds(1), clock: clock))
      let tick = ticks.subscribe { _ in }

      let waits: [(String, () async -> Bool)] = [
        ("for at least 2 sleepers", { await clock.waitUntil(sleeperCountAtLeast: 2, timeout: short) }),
        ("run() found a sleeper", { await clock.run(timeout: short) }),
        ("no event matched", { await recorder.expectEvent(timeout: short) { _ in false } != nil }),
        (
          "expected no event within",
          {
            let sender = Task { output.send(.loading) }
            let quiet = await recorder.expectNoEvents(within: .seconds(60))
            await sender.value
            return quiet
          }
        ),
        ("not every subscriber had handled", { await output.waitUntilDelivered(timeout: short) }),
        ("had not delivered", { await recorder.waitUntilDelivered(timeout: short) }),
      ]
      await clock.waitUntil(sleeperCount: 1)
      for (message, wait) in waits {
        var result = true
        let failures = await failures {
          result = await wait()
        }
        XCTAssertFalse(result, message)
        XCTAssertEqual(failures.count, 1, message)
        XCTAssertTrue(failures.first?.contains(message) == true, "\(message): \(failures)")
      }
      gate.signal()
      tick.cancel()
      token.cancel()
    }
  }
#endif
