import Dispatch
import Foundation
import Testing

@testable import EventBus

#if DEBUG
  @Suite("A tool that never serves the main queue is told so, once")
  struct MainQueueWatchdogTests {
    typealias State = MainQueueWatchdog.State

    @Test("blocks that wait the whole time, on a main queue that never ran one: warn, once")
    func warnsOnce() {
      var state = State()
      let armed = state.scheduled()
      let armedAgain = state.scheduled()
      let verdict = state.timerFired()
      let armedAfterWarning = state.scheduled()
      let afterWarning = state.timerFired()
      #expect(armed)
      #expect(!armedAgain, "one timer at a time")
      #expect(verdict == .warn)
      #expect(state.hasWarned)
      #expect(!armedAfterWarning, "no timer once it has warned")
      #expect(afterWarning == .done, "once warned, it says no more")
    }

    @Test("a main queue that has run a block is served: no warning, and no more timers")
    func servedMainQueue() {
      var state = State()
      _ = state.scheduled()
      state.started()
      _ = state.scheduled()  // waits, as behind a long step of the main actor
      let verdict = state.timerFired()
      let armed = state.scheduled()
      #expect(verdict == .done)
      #expect(!armed)
      #expect(!state.hasWarned)
    }

    @Test("nothing waits when the timer fires: no warning, and the next block sets it again")
    func nothingWaits() {
      var state = State()
      _ = state.scheduled()
      state.waiting = 0  // as if the block had gone with its lane
      let verdict = state.timerFired()
      let armed = state.scheduled()
      #expect(verdict == .done)
      #expect(armed)
      #expect(!state.hasWarned)
    }

    @Test(".main deliveries behind a blocked main queue: the warning says what to do, and they arrive once it runs")
    func blockedMainQueue() async throws {
      let patience = MainQueueWatchdog.patience
      // The timer does not fire by itself during the test; the test fires it.
      MainQueueWatchdog.patience = .seconds(3600)
      // Left warned afterwards, as a process that was told once: the blocks of other tests never make it warn.
      defer { MainQueueWatchdog.patience = patience }
      let output = Output<Int>()
      let delivered = AsyncStream.makeStream(of: Int.self)
      let subscription = output.subscribe(on: .main) { event in delivered.continuation.yield(event) }
      let mainBlocked = DispatchSemaphore(value: 0)
      let unblock = DispatchSemaphore(value: 0)
      let lookedVerdicts = LockedState<[MainQueueWatchdog.State.Verdict]>([])
      let capturedWarnings = LockedState<[String]>([])
      // The main queue is blocked on a thread of the test's own: a cooperative thread that waited here would be
      // missing while the main queue is held, and the other tests' main-queue work needs both.
      let finished = await runOnThread {
        // Every warning of the watchdog while the main queue is blocked: the test's own look, or a timer that another
        // test's block set, firing meanwhile; once warned, it says nothing more.
        let captured = DebugWarnings.capturing(inFile: "\(MainQueueWatchdog.callSite.fileID)") {
          DispatchQueue.main.async {
            mainBlocked.signal()
            unblock.wait()
          }
          mainBlocked.wait()
          // From here, with the main queue blocked, no block starts: watch as if none ever had.
          MainQueueWatchdog.reset()
          // Sent from another thread, as a tool's worker would: the lane puts a block on the main queue.
          output.send(7)
          // The look warns, unless a timer set by another test's block fired first and warned.
          lookedVerdicts.withLock { $0.append(MainQueueWatchdog.timerFired()) }
          lookedVerdicts.withLock { $0.append(MainQueueWatchdog.timerFired()) }
          unblock.signal()
        }
        capturedWarnings.withLock { $0 = captured }
      }
      guard finished else { return }
      let (verdicts, warnings) = (lookedVerdicts.withLock { $0 }, capturedWarnings.withLock { $0 })
      #expect(verdicts.filter { $0 == .warn }.count <= 1, "\(verdicts)")
      #expect(verdicts.last == .done, "once warned, it looks no more: \(verdicts)")
      #expect(warnings.count == 1, "\(warnings)")
      #expect(warnings.first?.contains("dispatchMain()") == true)
      #expect(warnings.first?.contains("RunLoop.main.run()") == true)
      var iterator = delivered.stream.makeAsyncIterator()
      #expect(await iterator.next() == 7)
      withExtendedLifetime(subscription) {}
    }
  }
#endif
