import Dispatch
import Foundation
import Testing

@testable import EventBus

#if DEBUG
  @Suite("A tool that never serves the main queue is told so, once")
  struct MainQueueWatchdogTests {
    typealias State = MainQueueWatchdog.State

    @Test("blocks that wait the whole time, none started: warn, once")
    func warnsOnce() {
      var state = State()
      let armed = state.scheduled()
      let armedAgain = state.scheduled()
      let verdict = state.timerFired()
      let armedAfterWarning = state.scheduled()
      #expect(armed)
      #expect(!armedAgain, "one timer at a time")
      #expect(verdict == .warn)
      #expect(state.hasWarned)
      #expect(!armedAfterWarning, "no timer once it has warned")
    }

    @Test("a block that started since the timer was set: look again later")
    func rearmsWhileBlocksRun() {
      var state = State()
      _ = state.scheduled()
      state.started()
      let armedAgain = state.scheduled()
      let first = state.timerFired()
      let second = state.timerFired()
      #expect(!armedAgain)
      #expect(first == .rearm)
      #expect(second == .warn, "the second block waited a whole period with none started")
    }

    @Test("nothing waits: the timer stops, and the next block sets it again")
    func stopsWhenNothingWaits() {
      var state = State()
      _ = state.scheduled()
      state.started()
      let verdict = state.timerFired()
      #expect(verdict == .done)
      #expect(state.startedWhenArmed == nil)
      let armed = state.scheduled()
      #expect(armed)
      #expect(!state.hasWarned)
    }

    @Test(".main deliveries behind a blocked main queue: the warning says what to do, and they arrive once it runs")
    func blockedMainQueue() async throws {
      MainQueueWatchdog.reset()
      let patience = MainQueueWatchdog.patience
      // The timer does not fire by itself during the test; the test fires it.
      MainQueueWatchdog.patience = .seconds(3600)
      defer {
        MainQueueWatchdog.patience = patience
        MainQueueWatchdog.reset()
      }
      let output = Output<Int>()
      let delivered = AsyncStream.makeStream(of: Int.self)
      let subscription = output.subscribe(on: .main) { event in delivered.continuation.yield(event) }
      let mainBlocked = DispatchSemaphore(value: 0)
      let unblock = DispatchSemaphore(value: 0)
      DispatchQueue.main.async {
        mainBlocked.signal()
        unblock.wait()
      }
      mainBlocked.wait()
      // Sent from another thread, as a tool's worker would: the lane puts a block on the main queue.
      let sent = DispatchSemaphore(value: 0)
      Thread {
        output.send(7)
        sent.signal()
      }.start()
      sent.wait()
      var verdicts: [MainQueueWatchdog.State.Verdict] = []
      let warnings = DebugWarnings.capturing(inFile: "\(MainQueueWatchdog.callSite.fileID)") {
        // A timer set by another test's block may have seen a block start since (`rearm`); with the main queue
        // blocked, the next look warns. Then it says nothing more.
        verdicts.append(MainQueueWatchdog.timerFired())
        if verdicts.last == .rearm { verdicts.append(MainQueueWatchdog.timerFired()) }
        verdicts.append(MainQueueWatchdog.timerFired())
      }
      unblock.signal()
      #expect(verdicts.filter { $0 == .warn }.count == 1, "\(verdicts)")
      #expect(warnings.count == 1)
      #expect(warnings.first?.contains("dispatchMain()") == true)
      #expect(warnings.first?.contains("RunLoop.main.run()") == true)
      var iterator = delivered.stream.makeAsyncIterator()
      #expect(await iterator.next() == 7)
      withExtendedLifetime(subscription) {}
    }
  }
#endif
