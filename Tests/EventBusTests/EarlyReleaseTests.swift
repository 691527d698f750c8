import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// In debug builds, a token released at once, before its handler could run, is reported once per call site: the
/// trace `_ = output.subscribe { … }` leaves, which the compiler accepts without a word.
@Suite struct EarlyReleaseTests {
  @Test func aTokenDiscardedAtOnceIsReportedWithWhereItWasMade() {
    let output = Output<Int>()
    let line = #line + 2
    let captured = DebugWarnings.capturing {
      _ = output.subscribe { _ in }
    }
    let warning = EarlyReleaseWarnings.warning(for: CallSite(line: UInt(line)))
    #expect(warning?.contains("the subscription made at EventBusTests/EarlyReleaseTests.swift:\(line) ended") == true)
    #expect(warning?.contains(".store(in: &subscriptions)") == true)
    #expect(captured.contains { $0 == warning })
  }

  @Test func aCapturedWarningIsHandedToTheCaptureOfItsFileOnly() {
    let elsewhere = CallSite(fileID: "EventBusTests/Elsewhere.swift", line: 7)
    let here = CallSite(fileID: "EventBusTests/Here.swift", line: 7)
    let captured = DebugWarnings.capturing(inFile: "EventBusTests/Here.swift") {
      let nested = DebugWarnings.capturing(inFile: "EventBusTests/Elsewhere.swift") {
        DebugWarnings.emit("about elsewhere", about: elsewhere)
      }
      #expect(nested == ["about elsewhere"])
      DebugWarnings.emit("about here", about: here)
    }
    #expect(captured == ["about here"])
  }

  @Test func twoCapturesOfOneFileSideBySideEachGetTheWarningsOfTheirOwnBody() async {
    // Two tests of one file, running at once, each provoking one warning: neither sees the other's.
    let site = CallSite(fileID: "EventBusTests/SideBySide.swift", line: 7)
    let bothInside = CyclicBarrier(parties: 2)
    let captured = LockedState<[Int: [String]]>([:])
    let finished = await runConcurrently(threads: 2) { thread in
      let warnings = DebugWarnings.capturing(inFile: "EventBusTests/SideBySide.swift") {
        bothInside.arriveAndWait()
        DebugWarnings.emit("from \(thread)", about: site)
        bothInside.arriveAndWait()
      }
      captured.withLock { $0[thread] = warnings }
    }
    guard finished else { return }
    #expect(captured.withLock { $0 } == [0: ["from 0"], 1: ["from 1"]])
    // A warning made outside any capture's body, on a thread of its own, still reaches every capture of its file.
    let outside = await DebugWarnings.capturing(inFile: "EventBusTests/SideBySide.swift") {
      await runOnThread { DebugWarnings.emit("from a thread", about: site) }
    }
    #expect(outside == ["from a thread"])
  }

  @Test func everyTokenOwnedFormIsWatched() {
    let output = Output<Int>()
    let hub = EventHub()
    let lines = (#line + 2)...(#line + 5)
    let captured = DebugWarnings.capturing {
      _ = output.subscribe(on: .main) { _ in }
      _ = output.readOnly.map { $0 + 1 }.subscribe { _ in }
      _ = hub.subscribe(Int.self) { _ in }
      _ = hub.subscribe(Int.self, on: .main) { _ in }
    }
    for line in lines {
      let warning = EarlyReleaseWarnings.warning(for: CallSite(line: UInt(line)))
      #expect(warning != nil, "line \(line) was not reported")
      #expect(captured.contains { $0 == warning }, "line \(line) was not captured")
    }
  }

  @Test func aTokenKeptWhileAnEventArrivesIsNotReported() {
    let output = Output<Int>()
    let line = #line + 1
    var subscription: EventSubscription? = output.subscribe { _ in }
    output.send(1)
    subscription = nil
    #expect(subscription == nil)
    #expect(EarlyReleaseWarnings.warning(for: CallSite(line: UInt(line))) == nil)
  }

  @Test func aCancelledTokenIsNotReported() {
    let output = Output<Int>()
    let line = #line + 1
    var subscription: EventSubscription? = output.subscribe { _ in }
    subscription?.cancel()
    subscription = nil
    #expect(subscription == nil)
    #expect(EarlyReleaseWarnings.warning(for: CallSite(line: UInt(line))) == nil)
  }

  @Test func aTokenReleasedOnAnotherThreadIsNotReported() async {
    let output = Output<Int>()
    let line = #line + 1
    let box = LockedState<EventSubscription?>(output.subscribe { _ in })
    await runOnThread {
      let subscription = box.take()
      _ = subscription  // the last reference, released on this thread
    }
    #expect(EarlyReleaseWarnings.warning(for: CallSite(line: UInt(line))) == nil)
  }

  @Test func aTokenReleasedAfterTheWindowIsNotReported() {
    let output = Output<Int>()
    let callSite = CallSite(fileID: "EventBusTests/AfterTheWindow.swift", line: 1)
    var subscription: EventSubscription? = output.subscribe { _ in }
    // A window of zero: any release comes after it, as that of a token kept by a screen that closed with no event.
    subscription?.earlyReleaseCheck = EarlyReleaseCheck(callSite: callSite, window: 0)
    subscription = nil
    #expect(subscription == nil)
    #expect(EarlyReleaseWarnings.warning(for: callSite) == nil)
  }

  @Test func aReplayedEventCountsAsDelivered() {
    let output = Output<Int>(replay: 1)
    output.send(1)
    let line = #line + 1
    _ = output.subscribe { _ in }
    #expect(EarlyReleaseWarnings.warning(for: CallSite(line: UInt(line))) == nil)
  }

  @Test func eachCallSiteIsReportedOnce() {
    let callSite = CallSite(fileID: "EventBusTests/ReportedOnce.swift", line: 1)
    let captured = DebugWarnings.capturing(inFile: "EventBusTests/ReportedOnce.swift") {
      #expect(EarlyReleaseWarnings.warn(about: callSite))
      #expect(!EarlyReleaseWarnings.warn(about: callSite))
    }
    #expect(captured == [EarlyReleaseWarnings.message(for: callSite)])
  }
}

extension EarlyReleaseTests {
  @Test func runtimeBehaviorQuotesTheWarningWordForWord() throws {
    let article = DocumentationFiles.packageRoot.appendingPathComponent(
      "Sources/EventBus/EventBus.docc/RuntimeBehavior.md")
    let text = try String(contentsOf: article, encoding: .utf8)
    let quoted = EarlyReleaseWarnings.message(for: CallSite(fileID: "Inbox/InboxScreen.swift", line: 42))
    #expect(text.contains("\n" + quoted + "\n"), "Runtime Behavior does not quote the warning as it is written")
  }
}
