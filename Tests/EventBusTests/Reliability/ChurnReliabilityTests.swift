import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G4: senders, permanent responders and threads that subscribe and cancel, all at once.
///
/// Every moment that matters is a tick of one logical clock (a counter behind a lock, so ticks taken on different
/// threads are ordered as the moments were):
/// - a sender takes a tick just before `send` and puts it in the event;
/// - the first subscriber, which never leaves, takes a tick when each round of delivery begins;
/// - a churning subscription takes a tick after `subscribe` returned (a), before `cancel()` (b) and after it
///   returned (c).
///
/// From these the checks are exact:
/// - an event whose send tick is later than c was sent after `cancel()` returned: it must not arrive;
/// - round k's subscriber list is taken after the event's send tick and after round k - 1 began; round k is over
///   before round k + 1 begins. So if either of those is later than a, and round k + 1 began before b, the
///   subscription was live for the whole delivery of event k: it must arrive, exactly once, in round order.
@Suite struct ChurnReliabilityTests {
  private struct Event: Sendable {
    var sender: Int
    var sequence: Int
    var tick: Int
  }

  private struct Round: Sendable {
    var eventTick: Int
    var beganTick: Int
  }

  /// One subscribe-then-cancel cycle.
  private final class Cycle: Sendable {
    let received = Log<Int>()
    /// (a) after subscribe returned, (b) before cancel, (c) after cancel returned.
    let ticks = LockedState((subscribed: 0, cancelling: 0, cancelled: Int.max))
  }

  @Test func cancelledHandlersGetNothingSentLaterAndLiveOnesMissNothing() async {
    let senders = 8
    let perSender = stress(10_000)
    let churners = 4
    let cyclesPerChurner = stress(5000)
    let rounds = Log<Round>()
    let cycles = (0..<churners * cyclesPerChurner).map { _ in Cycle() }
    let permanentProblems = Log<String>()
    let permanentCounts = (0..<32).map { _ in Counter() }
    // Set at the first event that reaches a handler after its cancel() returned. Lost cancellations pile up live
    // subscribers and slow everything down without end, so the run stops early and reports that instead.
    let violated = Flag()
    do {
      let output = Output<Event>()
      let clock = LogicalClock()
      let roundStarts = output.subscribe { event in
        rounds.append(Round(eventTick: event.tick, beganTick: clock.tick()))
      }
      let responders = (0..<32).map { _ in Recorder<Event>() }
      for (index, responder) in responders.enumerated() {
        let next = LockedState(Array(repeating: 0, count: senders))
        output.subscribe(responder) { _, event in
          permanentCounts[index].increment()
          let expected = next.withLock { next in
            defer { next[event.sender] = event.sequence + 1 }
            return next[event.sender]
          }
          if event.sequence != expected {
            permanentProblems.append(
              "responder \(index), sender \(event.sender): #\(event.sequence) after #\(expected - 1)")
          }
        }
      }
      guard
        await runConcurrently(
          threads: senders + churners,
          { thread in
            if thread < senders {
              for sequence in 0..<perSender where !violated.isSet {
                output.send(Event(sender: thread, sequence: sequence, tick: clock.tick()))
              }
              return
            }
            let churner = thread - senders
            for index in 0..<cyclesPerChurner where !violated.isSet {
              let cycle = cycles[churner * cyclesPerChurner + index]
              let responder = Recorder<Event>()
              let receive: @Sendable (Int) -> Void = { tick in
                cycle.received.append(tick)
                if tick > cycle.ticks.withLock({ $0.cancelled }) { violated.set() }
              }
              let subscription: any EventCancellable =
                index.isMultiple(of: 2)
                ? output.subscribe { receive($0.tick) }
                : output.subscribe(responder) { _, event in receive(event.tick) }
              let subscribed = clock.tick()
              if index % 4 == 1 { usleep(50) } else if index % 4 == 3 { sched_yield() }
              let cancelling = clock.tick()
              subscription.cancel()
              let cancelled = clock.tick()
              cycle.ticks.withLock { $0 = (subscribed, cancelling, cancelled) }
              withExtendedLifetime(responder) {}
            }
          })
      else { return }
      withExtendedLifetime(roundStarts) {}
      #expect(output.subscriberCount == 33)
    }
    await expectNoLiveObjects(for: Event.self)

    #expect(!violated.isSet, "G4: a handler received an event sent after its cancel() returned; the run stopped early")
    let total = senders * perSender
    for (index, count) in permanentCounts.enumerated() where !violated.isSet && count.current != total {
      Issue.record("responder \(index) received \(count.current) of \(total) events")
    }
    #expect(permanentProblems.elements.isEmpty, "\(permanentProblems.elements.prefix(5))")

    let delivered = rounds.elements
    #expect(violated.isSet || delivered.count == total)
    let began = delivered.map(\.beganTick)
    #expect(zip(began, began.dropFirst()).allSatisfy { $0 < $1 }, "G2: rounds overlapped")
    let roundOfEvent = Dictionary(
      delivered.enumerated().map { ($1.eventTick, $0) }, uniquingKeysWith: { first, _ in first })
    #expect(roundOfEvent.count == delivered.count, "G2: some event was delivered in more than one round")

    var lateDeliveries: [String] = []
    var lostDeliveries: [String] = []
    var disorders: [String] = []
    var required = 0
    for (number, cycle) in cycles.enumerated() {
      let (subscribed, cancelling, cancelled) = cycle.ticks.withLock { $0 }
      let received = cycle.received.elements
      if let late = received.first(where: { $0 > cancelled }) {
        lateDeliveries.append("cycle \(number): event sent at tick \(late), cancel() returned at \(cancelled)")
      }
      let receivedRounds = received.compactMap { roundOfEvent[$0] }
      if receivedRounds.count != received.count
        || zip(receivedRounds, receivedRounds.dropFirst()).contains(where: { $0 >= $1 })
      {
        disorders.append("cycle \(number): rounds \(receivedRounds) (duplicate, unknown or out of order)")
      }
      // Rounds that began after `subscribed` (their predecessor's beginning bounds their list from below) and whose
      // successor began before `cancelling` (so they were over).
      let firstCandidate = max(0, firstIndex(in: began) { $0 > subscribed } ?? began.count)
      let lastCandidate = (firstIndex(in: began) { $0 >= cancelling } ?? began.count) - 2
      guard firstCandidate <= lastCandidate else { continue }
      let receivedSet = Set(receivedRounds)
      for round in firstCandidate...lastCandidate {
        let listTakenAfter = max(delivered[round].eventTick, round > 0 ? began[round - 1] : 0)
        guard listTakenAfter > subscribed else { continue }
        required += 1
        if !receivedSet.contains(round) {
          lostDeliveries.append("cycle \(number): round \(round) (event tick \(delivered[round].eventTick)) lost")
        }
      }
    }
    #expect(
      lateDeliveries.isEmpty,
      "G4: \(lateDeliveries.count) events sent after cancel() returned arrived: \(lateDeliveries.prefix(5))")
    #expect(
      lostDeliveries.isEmpty,
      "G4: \(lostDeliveries.count) events lost by live subscriptions: \(lostDeliveries.prefix(5))")
    #expect(disorders.isEmpty, "\(disorders.prefix(5))")
    #expect(required > 0, "no subscription was live for a whole delivery; the loss check proved nothing")
  }
}

/// The first index whose element satisfies `predicate`, for a `predicate` that is false then true along `sorted`.
private func firstIndex(in sorted: [Int], where predicate: (Int) -> Bool) -> Int? {
  var low = 0
  var high = sorted.count
  while low < high {
    let middle = (low + high) / 2
    if predicate(sorted[middle]) { high = middle } else { low = middle + 1 }
  }
  return low < sorted.count ? low : nil
}
