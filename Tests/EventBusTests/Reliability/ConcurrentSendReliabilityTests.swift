import EventBusTestSupport
import Testing

@testable import EventBus

/// G1, G2: 8 threads send at once to 32 responders; every responder gets every event exactly once,
/// each sender's events in rising order, all responders in the same order, never two handlers at once.
@Suite struct ConcurrentSendReliabilityTests {
  private struct Event: Sendable {
    var sender: Int
    var sequence: Int
  }

  /// Watches every handler call of the output: more than one running at once breaks G2, a subscriber called out of
  /// turn within a round breaks G1.
  private final class DeliveryMonitor: Sendable {
    private struct State {
      var inside = 0
      var maximumInside = 0
      var lastSubscriber = -1
      var outOfTurn = 0
    }
    private let state = LockedState(State())
    let subscribers: Int

    init(subscribers: Int) {
      self.subscribers = subscribers
    }

    func enter(_ subscriber: Int) {
      state.withLock { state in
        state.inside += 1
        state.maximumInside = max(state.maximumInside, state.inside)
        if subscriber != (state.lastSubscriber + 1) % subscribers { state.outOfTurn += 1 }
        state.lastSubscriber = subscriber
      }
    }

    func leave() {
      state.withLock { $0.inside -= 1 }
    }

    var maximumInside: Int { state.withLock { $0.maximumInside } }
    var outOfTurn: Int { state.withLock { $0.outOfTurn } }
  }

  /// A responder that checks what it receives as it receives it.
  private final class CheckingResponder: Sendable {
    private struct State {
      var received = 0
      var nextSequence: [Int]
      var problems: [String] = []
      /// A running hash of the order of events, to compare the order seen by different responders.
      var orderHash: UInt64 = 0xCBF2_9CE4_8422_2325
    }
    private let state: LockedState<State>

    init(senders: Int) {
      state = LockedState(State(nextSequence: Array(repeating: 0, count: senders)))
    }

    func receive(_ event: Event) {
      state.withLock { state in
        state.received += 1
        let expected = state.nextSequence[event.sender]
        if event.sequence != expected, state.problems.count < 5 {
          state.problems.append(
            "sender \(event.sender): got #\(event.sequence), expected #\(expected) "
              + (event.sequence < expected ? "(duplicate or out of order)" : "(gap)"))
        }
        state.nextSequence[event.sender] = event.sequence + 1
        state.orderHash = (state.orderHash ^ UInt64(event.sender << 40 | event.sequence)) &* 0x100_0000_01B3
      }
    }

    var received: Int { state.withLock { $0.received } }
    var problems: [String] { state.withLock { $0.problems } }
    var orderHash: UInt64 { state.withLock { $0.orderHash } }
  }

  @Test func everyResponderReceivesEveryEventExactlyOnceInEachSendersOrder() async {
    let senders = 8
    let perSender = stress(10_000)
    let responderCount = 32
    do {
      let output = Output<Event>()
      let monitor = DeliveryMonitor(subscribers: responderCount)
      let responders = (0..<responderCount).map { _ in CheckingResponder(senders: senders) }
      for (index, responder) in responders.enumerated() {
        output.subscribe(responder) { responder, event in
          monitor.enter(index)
          responder.receive(event)
          monitor.leave()
        }
      }
      guard
        await runConcurrently(
          threads: senders,
          { sender in
            for sequence in 0..<perSender { output.send(Event(sender: sender, sequence: sequence)) }
          })
      else { return }
      let total = senders * perSender
      for (index, responder) in responders.enumerated() {
        #expect(responder.received == total, "responder \(index) received \(responder.received) of \(total)")
        #expect(responder.problems.isEmpty, "responder \(index): \(responder.problems)")
      }
      let hashes = Set(responders.map(\.orderHash))
      #expect(hashes.count == 1, "G1: responders saw \(hashes.count) different orders of the same events")
      #expect(monitor.maximumInside == 1, "G2: \(monitor.maximumInside) handlers ran at once")
      #expect(monitor.outOfTurn == 0, "G1: \(monitor.outOfTurn) handler calls out of subscription order")
    }
    await expectNoLiveObjects(for: Event.self)
  }
}
