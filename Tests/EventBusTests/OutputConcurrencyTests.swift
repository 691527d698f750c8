import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G2: an output delivers one event at a time; concurrent sends are queued and delivered first in, first out.
/// G7: every public API may be called from any thread (ThreadSanitizer checks the rest).
@Suite struct OutputConcurrencyTests {
  private struct Tagged: Sendable, Equatable {
    var sender: Int
    var sequence: Int
  }

  @Test func concurrentSendsAreDeliveredOneAtATimeAndAllArrive() async {
    let output = Output<Int>()
    let gauge = ConcurrencyGauge()
    let total = Counter()
    let token = output.subscribe { _ in
      gauge.measure { total.increment() }
      return
    }
    let perThread = stress(10_000)
    guard await runConcurrently(threads: 4, { _ in for value in 0..<perThread { output.send(value) } }) else { return }
    #expect(total.current == 4 * perThread)
    #expect(gauge.maximum == 1, "G2: \(gauge.maximum) handlers ran at once")
    token.cancel()
  }

  @Test func concurrentSendsKeepEachSendersOrder() async {
    let output = Output<Tagged>()
    let recorder = Recorder<Tagged>()
    output.subscribe(recorder)
    let senders = 4
    let perSender = stress(5000)
    guard
      await runConcurrently(
        threads: senders,
        { sender in
          for sequence in 0..<perSender { output.send(Tagged(sender: sender, sequence: sequence)) }
        })
    else { return }
    let events = recorder.events
    #expect(events.count == senders * perSender)
    for sender in 0..<senders {
      let sequences = events.filter { $0.sender == sender }.map(\.sequence)
      #expect(sequences == Array(0..<perSender), "sender \(sender)'s events arrived out of order or incomplete")
    }
  }

  @Test func sendsQueuedBehindADeliveryAreDeliveredFirstInFirstOut() async {
    // The first event's handler blocks its thread; three other threads then send one after another, each after the
    // previous send returned. The delivering thread must deliver them in the order they were queued.
    let output = Output<String>()
    let log = Log<String>()
    let inHandler = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let token = output.subscribe { event in
      log.append(event)
      if event == "first" {
        inHandler.signal()
        _ = release.wait(timeout: .now() + 30)
      }
    }
    let sent = DispatchSemaphore(value: 0)
    let finished = await runConcurrently(threads: 2) { thread in
      if thread == 0 {
        output.send("first")
      } else {
        _ = inHandler.wait(timeout: .now() + 30)
        for event in ["a", "b", "c", "d"] {
          // Each send runs on its own thread, and starts only after the previous one returned.
          Thread {
            output.send(event)
            sent.signal()
          }.start()
          _ = sent.wait(timeout: .now() + 30)
        }
        release.signal()
      }
    }
    #expect(finished)
    #expect(log.elements == ["first", "a", "b", "c", "d"])
    token.cancel()
  }

  @Test func sendReturnsAtOnceWhenAnotherThreadIsDelivering() async {
    // A send that finds a delivery running queues its event and returns; it does not wait for the delivery.
    let output = Output<Int>()
    let inHandler = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let log = Log<Int>()
    let token = output.subscribe { value in
      if value == 0 {
        inHandler.signal()
        _ = release.wait(timeout: .now() + 30)
      }
      log.append(value)
    }
    let returned = Flag()
    let finished = await runConcurrently(threads: 2) { thread in
      if thread == 0 {
        output.send(0)
      } else {
        _ = inHandler.wait(timeout: .now() + 30)
        output.send(1)
        returned.set()
        release.signal()
      }
    }
    #expect(finished)
    #expect(returned.isSet)
    #expect(log.elements == [0, 1])
    token.cancel()
  }

  @Test func everyPublicAPIMayBeCalledFromAnyThreadAtOnce() async {
    // Four threads subscribe (every kind), send, read, describe, set the trace hook and cancel, all at once. The
    // subscriber that lives throughout must see every event exactly once, and in the end only it is left.
    // ThreadSanitizer reports any data race.
    struct Event: Sendable, Equatable {
      var sender: Int
      var sequence: Int
    }
    let output = Output<Event>(replay: 2)
    let permanent = Recorder<Event>()
    output.subscribe(permanent)
    let traced = Counter()
    let threads = 4
    let iterations = stress(1000)
    // The threads release their last tokens unused, on purpose: the warnings are captured, not printed.
    var finished = false
    await capturingEarlyReleaseWarnings {
      finished = await runConcurrently(
        threads: threads,
        { thread in
          var tokens: [EventSubscription] = []
          for sequence in 0..<iterations {
            let responder = Recorder<Event>()
            let handle = output.subscribe(responder)
            output.subscribe { _ in }.store(in: &tokens)
            output.readOnly.map(\.sequence).subscribe { _ in }.store(in: &tokens)
            output.send(Event(sender: thread, sequence: sequence))
            _ = output.subscriberCount
            _ = output.debugDescription
            _ = output.readOnly.subscriberCount
            if sequence % 100 == 0 {
              output.trace = { _ in traced.increment() }
              _ = output.trace
            }
            if sequence % 2 == 0 {
              handle.cancel()
            }
            tokens.removeFirst().cancel()
            if tokens.count > 8 {
              tokens.removeAll()
            }
          }
          tokens.removeAll()
        })
    }
    guard finished else { return }
    #expect(permanent.events.count == threads * iterations)
    for sender in 0..<threads {
      let sequences = permanent.events.filter { $0.sender == sender }.map(\.sequence)
      #expect(sequences == Array(0..<iterations))
    }
    #expect(output.subscriberCount == 1)
    #expect(traced.current > 0)
  }
}
