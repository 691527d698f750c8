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
      await assertNoLeakedEventBusObjects {
        let output = Output<XCTestEvent>()
        let recorder = EventRecorder(output)
        output.send(.tick)
        let arrived = await recorder.waitForEvents(count: 1, timeout: 30)
        XCTAssertTrue(arrived)
      }
    }
  }
#endif
