// follows: pass the timeout as a Duration: waitForEvents(count:timeout: .seconds(5))
// follows: pass the wait as a Duration: report(waitingUpTo: .seconds(2))
// follows: pass the wait as a Duration: .checksForLeaks(waitingUpTo: .seconds(2))
// follows: pass the wait as a Duration: waitingUpTo: .seconds(2)
// The deprecated `Double` timeouts of the recorder and the leak check each say to pass a `Duration`; here is each
// message's advice, written as it says, compiling without a warning.
import EventBus
import EventBusTesting
import Testing

#if canImport(XCTest)
  import XCTest
#endif

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func waitAsTheRecorderMessageSays(_ recorder: EventRecorder<Int>) async -> Bool {
  await recorder.waitForEvents(count: 1, timeout: .seconds(5))
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func reportAsTheLeakCheckMessageSays() async -> LeakReport {
  await LeakCheck.report(waitingUpTo: .seconds(2)) {}
}

struct TraitAsItsMessageSays {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(.checksForLeaks(waitingUpTo: .seconds(2))) func checked() {}
}

#if canImport(XCTest)
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class AssertionAsItsMessageSays: XCTestCase {
    func testChecked() async {
      await assertNoLeakedEventBusObjects(waitingUpTo: .seconds(2)) {}
    }
  }
#endif
