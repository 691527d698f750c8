import EventBusTestSupport
import Testing

/// The suite's own waits keep the rule that lets it pass on a busy machine: a test body never blocks a cooperative
/// thread on work another queue must do.
@Suite struct WaitingHelperTests {
  @Test func aBlockingWaitCalledFromATestBodyIsReported() {
    withKnownIssue("a test body blocked a cooperative thread") {
      _ = waitUntil(timeout: 0) { true }
    }
  }

  @Test func aBlockingWaitOnAThreadOfTheTestsOwnIsNot() async {
    // An issue recorded on the thread would fail this test: nothing expects one here.
    let held = Flag()
    #expect(await runOnThread { if waitUntil(timeout: 0, { true }) { held.set() } })
    #expect(held.isSet)
  }

  @Test func aPollingWaitThatRunsOutSaysSoAtItsCaller() async {
    await withKnownIssue("the condition never held") {
      #expect(await suspendUntil(timeout: 0) { false } == false)
    }
  }
}
