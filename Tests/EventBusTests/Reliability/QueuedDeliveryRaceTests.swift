import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// Subscriptions changed from another thread while a queue's block delivers a burst: a token cancelled, a responder
/// subscription cancelled, a subscriber added, a responder let go. Each race runs hundreds of trials on a serial
/// queue, a concurrent queue and the main queue; CI runs them under ThreadSanitizer, which must report nothing, and
/// every trial checks the guarantees with exact counts (G1, G4, G5, G6).
///
/// The block and the thread that changes the subscription share nothing but the output: the handlers of the racing
/// subscriber synchronise with nothing, so that any hand-off inside the library that a tool cannot see is reported.
@Suite struct QueuedDeliveryRaceTests {
  enum Queue: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case serial, concurrent, main

    var testDescription: String { rawValue }

    var dispatchQueue: DispatchQueue {
      switch self {
      case .serial: DispatchQueue(label: "race.serial")
      case .concurrent: DispatchQueue(label: "race.concurrent", attributes: .concurrent)
      case .main: .main
      }
    }

    func context(_ queue: DispatchQueue) -> DeliveryContext {
      self == .main ? DeliveryContext(kind: .mainActor) : .queue(queue)
    }
  }

  enum Change: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case cancelToken, cancelResponderSubscription, subscribe, letGoOfResponder

    var testDescription: String { rawValue }
  }

  /// Events each trial sends; -1, sent last, marks the end of a trial.
  static let eventsPerTrial = 200
  static let trials = stress(400)

  /// What the racing subscriber saw: its events, with nothing synchronising their writes but the library's own
  /// ordering (each trial reads them in the lane's last handler of the trial, see `drain`).
  final class Sightings: @unchecked Sendable {
    // Written by the lane's blocks, one at a time (G2, G13); read by the lane's last handler of the trial, which the
    // lane orders after every write.
    var events: [Int] = []
    var afterDeinit = 0
  }

  /// A responder whose handler records, unsynchronised, into `sightings`, and notes a call after its deinit began.
  final class Screen: @unchecked Sendable {
    // `isGone` is set by the deinit, on whichever thread releases the screen last; a handler call after that is the
    // violation the test counts.
    let sightings: Sightings
    var isGone = false

    init(_ sightings: Sightings) {
      self.sightings = sightings
    }

    func handle(_ event: Int) {
      sightings.events.append(event)
    }

    deinit {
      isGone = true
    }
  }

  @Test(arguments: Queue.allCases, Change.allCases)
  func changeFromAnotherThreadWhileABlockDeliversLeavesEveryGuaranteeAndNoRace(queue kind: Queue, change: Change)
    async
  {
    for trial in 0..<Self.trials {
      guard await runTrial(kind, change, trial: trial) else { return }
    }
  }

  /// One trial: a sender thread sends the events; once the racing subscriber has had a few, a second thread makes the
  /// change. Returns `false` when the trial failed or timed out, to stop the loop.
  private func runTrial(_ kind: Queue, _ change: Change, trial: Int) async -> Bool {
    let queue = kind.dispatchQueue
    let context = kind.context(queue)
    let output = Output<Int>()
    let bystander = Log<Int>()
    let bystanderToken = output.subscribe(on: context) { bystander.append($0) }
    let sightings = Sightings()
    let started = DispatchSemaphore(value: 0)
    let startAfter = 3 + trial % 7
    let token = LockedState<EventSubscription?>(nil)
    let handle = LockedState<ResponderSubscription?>(nil)
    let screen = Slot<Screen>(Screen(sightings))

    switch change {
    case .cancelToken:
      token.withLock {
        $0 = output.subscribe(on: context) { event in
          sightings.events.append(event)
          if sightings.events.count == startAfter { started.signal() }
        }
      }
    case .cancelResponderSubscription, .letGoOfResponder:
      let subscription = output.subscribe(screen.value!, on: context) { screen, event in
        if screen.isGone { screen.sightings.afterDeinit += 1 }
        screen.handle(event)
        if screen.sightings.events.count == startAfter { started.signal() }
      }
      handle.withLock { $0 = subscription }
    case .subscribe:
      // The bystander's progress starts the change: the new subscriber has nothing yet.
      break
    }
    let progress = output.subscribe(on: context) { event in
      if change == .subscribe, event == startAfter { started.signal() }
    }
    let newcomer = LockedState<EventSubscription?>(nil)
    let sentWhenChanged = LockedState(-1)
    let sent = LockedState(0)

    let finished = await runConcurrently(threads: 2) { thread in
      if thread == 0 {
        for event in 0..<Self.eventsPerTrial {
          sent.withLock { $0 = event + 1 }
          output.send(event)
        }
        return
      }
      guard started.wait(timeout: .now() + watchdogTimeout) == .success else { return }
      switch change {
      case .cancelToken:
        token.withLock { $0 }?.cancel()
      case .cancelResponderSubscription:
        handle.withLock { $0 }?.cancel()
      case .letGoOfResponder:
        screen.put(nil)
      case .subscribe:
        let subscription = output.subscribe(on: context) { sightings.events.append($0) }
        newcomer.withLock { $0 = subscription }
      }
      sentWhenChanged.withLock { $0 = sent.withLock { $0 } }
    }
    guard finished else { return false }
    // What the racing subscriber saw, read on the lane after its last handler, and handed over through a lock.
    let sightingsSeen = LockedState<(events: [Int], afterDeinit: Int)>(([], 0))
    let drained = await drain(output, on: context) {
      sightingsSeen.withLock { $0 = (sightings.events, sightings.afterDeinit) }
    }
    guard drained else { return false }

    let changedAt = sentWhenChanged.withLock { $0 }
    let (allSeen, afterDeinit) = sightingsSeen.withLock { $0 }
    let seen = allSeen.filter { $0 >= 0 }
    let expected = Array(0..<Self.eventsPerTrial)
    #expect(
      bystander.elements.filter { $0 >= 0 } == expected, "trial \(trial): the bystander missed or reordered events")
    #expect(afterDeinit == 0, "trial \(trial): a handler ran after its responder's deinit began")
    switch change {
    case .cancelToken, .cancelResponderSubscription, .letGoOfResponder:
      // A prefix, in order: nothing after the cancel, nothing skipped before it (G1, G4).
      #expect(seen == Array(expected.prefix(seen.count)), "trial \(trial): not a prefix in order: \(seen)")
      #expect(seen.count >= startAfter, "trial \(trial)")
      if change != .letGoOfResponder {
        #expect(seen.count <= changedAt, "trial \(trial): an event sent after cancel() returned was delivered")
      }
    case .subscribe:
      // A suffix, in order: everything sent after the subscribe returned, nothing twice (G1, G5).
      #expect(seen == Array(expected.suffix(seen.count)), "trial \(trial): not a suffix in order: \(seen)")
      #expect(
        seen.count >= Self.eventsPerTrial - changedAt, "trial \(trial): an event sent after subscribing is missing")
    }
    withExtendedLifetime((bystanderToken, progress)) {}
    newcomer.withLock { $0 }?.cancel()
    token.withLock { $0 }?.cancel()
    return seen.count >= startAfter || change == .subscribe
  }

  /// Returns once every handler of the output's lane in `context` has run for every event sent so far: a subscriber
  /// added now is the lane's last, and its handler for one more event runs after every earlier handler of the lane,
  /// in the lane's order. A queue barrier would not do: ThreadSanitizer does not see a `.barrier` block's ordering.
  /// `body` runs there, in the last handler, before the wait ends.
  private func drain(
    _ output: Output<Int>, on context: DeliveryContext, then body: @escaping @Sendable () -> Void
  ) async -> Bool {
    let done = DispatchSemaphore(value: 0)
    let last = output.subscribe(on: context) { event in
      guard event == -1 else { return }
      body()
      done.signal()
    }
    output.send(-1)
    let drained = await runOnThread { _ = done.wait(timeout: .now() + watchdogTimeout) }
    last.cancel()
    return drained
  }
}
