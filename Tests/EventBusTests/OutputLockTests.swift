import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G8: no lock is held while user code runs, so a handler (or a deinit, or the trace hook) may call any API of any
/// output, including the one delivering to it.
///
/// Debug builds use an error-checking mutex: calling back into an output while its lock is held traps with
/// "EventBus: lock failed (35); a lock was taken recursively" instead of hanging.
@Suite struct OutputLockTests {
  /// Whether another thread can use `output` right now; `false` if it is blocked for `timeout` (a lock is held).
  private func outputIsFree<Event>(_ output: Output<Event>, timeout: TimeInterval = 10) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
      _ = output.subscriberCount
      _ = output.debugDescription
      done.signal()
    }.start()
    return done.wait(timeout: .now() + timeout) == .success
  }

  @Test func noLockIsHeldWhileAHandlerRuns() async {
    let output = Output<Int>()
    let free = Log<Bool>()
    let token = output.subscribe { _ in free.append(outputIsFree(output)) }
    await runOnThread(timeout: 60) { output.send(0) }
    #expect(free.elements == [true], "G8: another thread could not use the output while a handler ran")
    withExtendedLifetime(token) {}
  }

  @Test func handlerMayCallEveryAPIOfTheOutputDeliveringToIt() async {
    let output = Output<Int>(replay: 1)
    let log = Log<String>()
    let other = Log<Int>()
    let otherToken = Slot<EventSubscription>()
    let added = LockedState<[EventSubscription]>([])
    let responder = Recorder<Int>()
    let traced = Log<Int>()
    let token = output.subscribe { event in
      guard event == 0 else { return }
      output.send(1)
      let added1 = output.subscribe { _ in }
      added.withLock { $0.append(added1) }
      output.subscribe(responder)
      let added2 = output.readOnly.filter { $0 > 0 }.subscribe { _ in }
      added.withLock { $0.append(added2) }
      otherToken.value?.cancel()
      log.append("subscriberCount \(output.subscriberCount)")
      log.append(output.debugDescription.components(separatedBy: "\n")[0])
      output.trace = { traced.append($0) }
      log.append("trace \(output.trace == nil ? "unset" : "set")")
      _ = output.readOnly.subscriberCount
      added.withLock { $0 }.first?.cancel()
    }
    otherToken.put(output.subscribe { other.append($0) })
    let finished = await runOnThread(timeout: 60) { output.send(0) }
    #expect(finished, "G8: a handler calling its own output deadlocked")
    #expect(
      log.elements == [
        "subscriberCount 4", "Output<Int>: 4 subscribers, replay 1", "trace set",
      ])
    #expect(other.elements == [], "cancelled from a handler before its turn, yet called")
    #expect(responder.events == [0, 1], "replay of 0, then 1")
    #expect(traced.elements == [], "the trace hook was set after 1 was queued")
    output.send(2)
    #expect(traced.elements == [2])
    #expect(output.subscriberCount == 3)
    withExtendedLifetime(token) {}
  }

  @Test func traceHookMayCallTheOutput() async {
    let output = Output<Int>()
    let counts = Log<Int>()
    output.trace = { _ in counts.append(output.subscriberCount) }
    let token = output.subscribe { _ in }
    let finished = await runOnThread(timeout: 60) {
      output.send(0)
      output.trace = { event in if event == 1 { output.send(2) } }
      output.send(1)
    }
    #expect(finished)
    #expect(counts.elements == [1])
    // The hook captures the output strongly: clearing it breaks that cycle, as the `trace` documentation says.
    output.trace = nil
    withExtendedLifetime(token) {}
  }

  @Test func twoOutputsWhoseHandlersSendToEachOtherFromTwoThreadsDoNotDeadlock() async {
    // Thread 0 delivers on `a`, whose handler sends on `b`; thread 1 delivers on `b`, whose handler sends on `a`.
    // With a lock held during delivery this is the classic lock-order deadlock.
    let a = Output<Int>()
    let b = Output<Int>()
    let reachedA = Counter()
    let reachedB = Counter()
    let tokenA = a.subscribe { value in
      reachedA.increment()
      if value > 0 { b.send(value - 1) }
    }
    let tokenB = b.subscribe { value in
      reachedB.increment()
      if value > 0 { a.send(value - 1) }
    }
    let rounds = stress(2000)
    let finished = await runConcurrently(threads: 2) { thread in
      for _ in 0..<rounds {
        if thread == 0 { a.send(3) } else { b.send(3) }
      }
    }
    #expect(finished, "G8: outputs sending to each other from two threads deadlocked")
    // Each send of 3 makes a chain 3, 2, 1, 0 that alternates outputs: two deliveries on each.
    #expect(reachedA.current == 4 * rounds)
    #expect(reachedB.current == 4 * rounds)
    withExtendedLifetime((tokenA, tokenB)) {}
  }

  /// A responder whose `deinit` uses the output that delivers to it.
  private final class UsesOutputWhileDying: Sendable {
    let output: Output<Int>
    let keep: LockedState<[EventSubscription]>
    let deinitLog: Log<String>

    init(output: Output<Int>, keep: LockedState<[EventSubscription]>, deinitLog: Log<String>) {
      self.output = output
      self.keep = keep
      self.deinitLog = deinitLog
    }

    deinit {
      let output = output
      output.send(100)
      let added = output.subscribe { _ in }
      keep.withLock { $0.append(added) }
      keep.withLock { $0.first }?.cancel()
      deinitLog.append("count \(output.subscriberCount)")
      deinitLog.append(output.debugDescription.components(separatedBy: "\n")[0])
      deinitLog.append("on \(Thread.current.name ?? "?")")
    }
  }

  @Test func responderDeinitRunningOnTheDeliveringThreadMayUseTheOutput() async {
    // The handler drops the last outside reference to its responder; the reference the delivery holds goes at the end
    // of the handler, so the deinit runs on the delivering thread, in the middle of the delivery.
    let output = Output<Int>()
    let keep = LockedState<[EventSubscription]>([])
    let deinitLog = Log<String>()
    let box = Slot(UsesOutputWhileDying(output: output, keep: keep, deinitLog: deinitLog))
    let first = output.subscribe { _ in }
    keep.withLock { $0.append(first) }
    output.subscribe(box.value!) { _, event in
      if event == 0 { _ = box.take() }
    }
    let observer = Recorder<Int>()
    output.subscribe(observer)
    let finished = await runOnThread(timeout: 60) {
      Thread.current.name = "delivering"
      output.send(0)
    }
    #expect(finished, "G8: a deinit using the output on the delivering thread deadlocked")
    #expect(deinitLog.elements == ["count 2", "Output<Int>: 2 subscribers", "on delivering"])
    #expect(observer.events == [0, 100])
    #expect(output.subscriberCount == 2)
  }

  /// An event that holds an object with a deinit.
  private struct Payload: Sendable {
    let probe: LifetimeProbe
  }

  @Test func eventDroppedFromTheReplayWindowIsReleasedWithNoLockHeld() async {
    // The replay window holds the only copy of an old event; when a new send pushes it out, its payload's deinit
    // runs. If that happened under the output's lock, the deinit's call into the output would trap or deadlock.
    let output = Output<Payload>(replay: 1)
    let deinitCounts = Log<Int>()
    // The payloads reach the output through a box that is emptied at the end, so they don't keep it alive.
    let box = Slot(output)
    let makePayload: @Sendable () -> Payload = {
      Payload(probe: LifetimeProbe { if let output = box.value { deinitCounts.append(output.subscriberCount) } })
    }
    let finished = await runOnThread(timeout: 60) {
      output.send(makePayload())
      output.send(makePayload())
    }
    #expect(finished, "G8: the deinit of an event leaving the replay window deadlocked")
    #expect(deinitCounts.elements == [0])
    box.put(nil)
  }

  @Test func cancelledReplayWaitingForItsTurnIsReleasedWithNoLockHeld() async {
    // A handler subscribes to its own replaying output (the replay waits for the current delivery to end) and drops
    // the token at once; the waiting replay then holds the last reference to the handler and what it captures.
    let output = Output<Int>(replay: 2)
    output.send(1)
    let deinitCounts = Log<Int>()
    let first = output.subscribe { event in
      guard event == 2 else { return }
      let probe = LifetimeProbe { deinitCounts.append(output.subscriberCount) }
      let token = output.subscribe { _ in withExtendedLifetime(probe) {} }
      token.cancel()
    }
    let finished = await runOnThread(timeout: 60) { output.send(2) }
    #expect(finished, "G8: releasing a cancelled, waiting replay deadlocked")
    #expect(deinitCounts.elements == [1])
    withExtendedLifetime(first) {}
  }
}
