import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// An output's common `send` takes no lock: it claims the delivery, delivers to the published member list and lets
/// go. These tests change membership and the trace from other threads while such a round runs, where the list must
/// stay frozen for the round and the change must reach the next one (G2, G4, G5, G7).
@Suite struct OutputLockFreeSendTests {
  private struct Tagged: Sendable, Equatable {
    var sender: Int
    var sequence: Int
  }

  /// Runs `change` on another thread while the first event's handler runs, and waits for it to finish there: a
  /// change made during a round must not wait for the round.
  private func duringTheFirstEvent(
    of output: Output<Int>, _ change: @escaping @Sendable () -> Void
  ) -> (EventSubscription, Log<Int>) {
    let log = Log<Int>()
    let token = output.subscribe { event in
      log.append(event)
      if event == 1 {
        #expect(runOnThreadBlocking(timeout: 30, change), "a change during a round waited for the round")
      }
    }
    return (token, log)
  }

  @Test func aSubscriberAddedFromAnotherThreadDuringARoundGetsOnlyTheNextEvent() {
    let output = Output<Int>()
    let late = Log<Int>()
    let lateToken = Slot<EventSubscription>()
    let (token, first) = duringTheFirstEvent(of: output) {
      lateToken.put(output.subscribe { late.append($0) })
    }
    output.send(1)
    output.send(2)
    #expect(first.elements == [1, 2])
    #expect(late.elements == [2], "G5: added during event 1, it gets event 2 only")
    #expect(output.subscriberCount == 2)
    token.cancel()
    lateToken.take()?.cancel()
  }

  @Test func aSubscriberCancelledFromAnotherThreadDuringARoundMissesEveryLaterEvent() {
    let output = Output<Int>()
    let cancelled = Log<Int>()
    let victim = Slot<EventSubscription>()
    // Subscribed first, so event 1 reached it before the first subscriber's handler cancels it.
    victim.put(output.subscribe { cancelled.append($0) })
    let (token, first) = duringTheFirstEvent(of: output) { victim.take()?.cancel() }
    output.send(1)
    output.send(2)
    output.send(3)
    #expect(first.elements == [1, 2, 3])
    #expect(cancelled.elements == [1], "G4: nothing sent after cancel() returned reaches it")
    #expect(output.subscriberCount == 1)
    token.cancel()
  }

  @Test func aSendFromAnotherThreadDuringARoundIsDeliveredByTheRoundsThreadAfterIt() {
    let output = Output<Int>()
    let deliveringThreads = Log<Bool>()
    let sender = ThreadIdentity.current
    let (token, log) = duringTheFirstEvent(of: output) { output.send(2) }
    let probe = output.subscribe { _ in deliveringThreads.append(ThreadIdentity.current == sender) }
    output.send(1)
    #expect(log.elements == [1, 2], "the queued event is delivered before send(1) returns")
    #expect(deliveringThreads.elements == [true, true])
    #expect(output.pendingCount == 0)
    token.cancel()
    probe.cancel()
  }

  @Test func sendsRacingSubscribesCancelsAndTraceChangesLoseNothingAndKeepOrder() async {
    // Two threads send; one subscribes and cancels short-lived subscribers; one sets and clears the trace, which
    // moves every send between the lock-free path and the locked one. The stable subscriber must see every event
    // exactly once, in each sender's order, one at a time.
    let output = Output<Tagged>()
    let gauge = ConcurrencyGauge()
    let received = Log<Tagged>()
    let stable = output.subscribe { event in gauge.measure { received.append(event) } }
    let traced = Counter()
    let senders = 2
    let perSender = stress(20_000)
    let churnCycles = stress(4000)
    let finishedSenders = Counter()
    let finished = await runConcurrently(threads: senders + 2) { thread in
      switch thread {
      case 0..<senders:
        for sequence in 0..<perSender { output.send(Tagged(sender: thread, sequence: sequence)) }
        finishedSenders.increment()
      case senders:
        for _ in 0..<churnCycles {
          output.subscribe { _ in }.cancel()
        }
      default:
        while finishedSenders.current < senders {
          output.trace = { _ in traced.increment() }
          output.trace = nil
        }
      }
    }
    guard finished else { return }
    let events = received.elements
    #expect(events.count == senders * perSender)
    for sender in 0..<senders {
      let sequences = events.filter { $0.sender == sender }.map(\.sequence)
      #expect(sequences == Array(0..<perSender), "sender \(sender)'s events were lost, repeated or reordered")
    }
    #expect(gauge.maximum == 1, "G2: \(gauge.maximum) handlers ran at once")
    #expect(output.subscriberCount == 1, "every short-lived subscriber is gone")
    #expect(output.pendingCount == 0)
    stable.cancel()
  }
}
