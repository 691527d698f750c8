import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G4, G8: one thread sends without pause while another subscribes responders and drops their
/// last strong reference.
@Suite struct DeallocationRaceTests {
  private struct Event: Sendable {
    var fromDeinit: Bool
  }

  /// What a dying responder does in its `deinit` with the output that delivers to it.
  private enum DeinitAction: CaseIterable {
    case nothing, subscribe, cancel, send
  }

  /// What the threads share.
  private final class Shared: Sendable {
    let output = Output<Event>()
    let slot = Slot<Responder>()
    /// The round whose responder the handler may take from the slot: set once the dropping thread holds no reference.
    let armedRound = LockedState(-1)
    let deinits = Counter()
    let deinitsOnTheDeliveringThread = Counter()
    let calledWhileDying = Counter()
    /// The latest subscription a deinit made; putting the next one here ends it, so subscribers don't pile up.
    let subscribedInDeinit = Slot<EventSubscription>()
    let sentInDeinit = Counter()
  }

  private final class Responder: Sendable {
    let round: Int
    let action: DeinitAction
    /// Whether the handler, rather than the dropping thread, takes the last outside reference.
    let dropsItselfInHandler: Bool
    let shared: Shared
    let deinitBegan = Flag()
    let toCancel = Slot<EventSubscription>()
    /// The thread whose handler took the last outside reference, if one did.
    let takenByHandlerOn = LockedState<ThreadIdentity?>(nil)

    init(round: Int, action: DeinitAction, dropsItselfInHandler: Bool, shared: Shared) {
      self.round = round
      self.action = action
      self.dropsItselfInHandler = dropsItselfInHandler
      self.shared = shared
    }

    deinit {
      deinitBegan.set()
      shared.deinits.increment()
      if let thread = takenByHandlerOn.withLock({ $0 }), thread == .current {
        shared.deinitsOnTheDeliveringThread.increment()
      }
      switch action {
      case .nothing:
        break
      case .subscribe:
        shared.subscribedInDeinit.put(shared.output.subscribe { _ in })
      case .cancel:
        toCancel.value?.cancel()
      case .send:
        shared.sentInDeinit.increment()
        shared.output.send(Event(fromDeinit: true))
      }
    }
  }

  @Test func droppingTheLastReferenceWhileAnotherThreadSendsNeverCallsADyingResponder() async {
    // In even rounds the dropping thread releases the responder after a varying pause, racing the deliveries. In odd
    // rounds the handler takes the last outside reference itself, so the deinit runs on the delivering thread, inside
    // the delivery, as the handler returns. Each deinit in turn does nothing, subscribes, cancels or sends.
    //
    // The sender keeps pace with the rounds, about three events each, and stops after the last: a thread that delivers
    // also delivers what other threads queue meanwhile (G2), so an endless sender would keep a deinit's send
    // delivering forever.
    let rounds = stress(10_000)
    let toSend = 3 * rounds
    let roundsStarted = Counter()
    let observed = Counter()
    let sent = Counter()
    let senderDone = Flag()
    let stuckRounds = Counter()
    do {
      let shared = Shared()
      let observer = shared.output.subscribe { _ in observed.increment() }
      var finished = false
      // Tokens subscribed in a deinit or for cancelling are released unused, on purpose: their warnings are
      // captured, not printed.
      await capturingEarlyReleaseWarnings {
        finished = await runConcurrently(threads: 2) { thread in
          if thread == 0 {
            for number in 0..<toSend {
              while number > 3 * roundsStarted.current + 8 { sched_yield() }
              shared.output.send(Event(fromDeinit: false))
              sent.increment()
            }
            senderDone.set()
            return
          }
          let calledWhileDying = shared.calledWhileDying
          let slot = shared.slot
          for round in 0..<rounds {
            roundsStarted.increment()
            let actions = DeinitAction.allCases
            let dropsItself = round % 2 == 1
            do {
              let responder = Responder(
                round: round, action: actions[(round / 2) % actions.count], dropsItselfInHandler: dropsItself,
                shared: shared)
              responder.toCancel.put(shared.output.subscribe { _ in })
              shared.output.subscribe(responder) { responder, _ in
                if responder.deinitBegan.isSet { calledWhileDying.increment() }
                if responder.dropsItselfInHandler, shared.armedRound.withLock({ $0 }) == responder.round,
                  let taken = slot.take()
                {
                  taken.takenByHandlerOn.withLock { $0 = .current }
                }
              }
              slot.put(responder)
            }
            if dropsItself {
              // This thread holds no reference now: from here the handler's is the last but the slot's.
              shared.armedRound.withLock { $0 = round }
              let deadline = Date().addingTimeInterval(30)
              var waits = 0
              while !slot.isEmpty && Date() < deadline {
                waits += 1
                if senderDone.isSet || waits % 64 == 0 {
                  // The sender is done, or waiting for the rounds to catch up: send from here, on this thread.
                  shared.output.send(Event(fromDeinit: false))
                  sent.increment()
                } else {
                  sched_yield()
                }
              }
              if !slot.isEmpty { stuckRounds.increment() }
            } else {
              for _ in 0..<(round % 7) * 20 { _ = sent.current }
            }
            _ = slot.take()
          }
        }
      }
      guard finished else { return }
      #expect(stuckRounds.current == 0, "in \(stuckRounds.current) rounds no event reached the responder")
      #expect(shared.calledWhileDying.current == 0, "G4: \(shared.calledWhileDying.current) calls after deinit began")
      #expect(shared.deinits.current == rounds)
      #expect(
        shared.deinitsOnTheDeliveringThread.current == rounds / 2,
        "\(shared.deinitsOnTheDeliveringThread.current) deinits ran on the delivering thread; \(rounds / 2) were arranged to"
      )
      #expect(observed.current == sent.current + shared.sentInDeinit.current, "events lost or duplicated")
      // Left: the observer and the latest subscription a deinit made. (Each responder's token to cancel died with it.)
      // Pruning also drops the entries of responders that died after the last send: their handlers capture `shared`,
      // which holds the output, so an unpruned one would keep the output alive.
      shared.output.pruneDeadSubscribers()
      #expect(shared.output.subscriberCount == 2)
      shared.subscribedInDeinit.put(nil)
      withExtendedLifetime(observer) {}
    }
    await expectNoLiveObjects(for: Event.self)
  }
}
