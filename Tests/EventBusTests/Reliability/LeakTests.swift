import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G6: whatever way a subscription ends, everything it involved is freed: the live-object counters
/// read 0 for the test's own event type, and weak references to the responder, the output and what the handler
/// captured are `nil`.
@Suite struct LeakTests {
  private enum Ending: CaseIterable {
    case cancel, tokenRelease, responderDeinit, outputReleasedFirst
  }

  private enum Context: CaseIterable {
    case immediate, queue, main
  }

  private enum Kind: CaseIterable {
    case token, responder
  }

  private static let queue = DispatchQueue(label: "leaks", attributes: .concurrent)

  /// Subscribes one way, sends, ends the subscription one way, then lets go of everything in two steps: all but the
  /// output first (the subscription's entry, lane, handler, captures and responder must go while the output lives
  /// on), then the output. Returns what was still alive at either step.
  private func leftovers<Event: Sendable>(
    _ make: @escaping @Sendable () -> Event, kind: Kind, ending: Ending, context: Context
  ) async -> [String] {
    weak var weakOutput: Output<Event>?
    weak var weakResponder: Recorder<Event>?
    weak var weakCaptured: LifetimeProbe?
    var output: Output<Event>? = Output<Event>(replay: 1)
    var responder: Recorder<Event>? = Recorder<Event>()
    var token: EventSubscription?
    var handle: ResponderSubscription?
    let delivered = Counter()
    do {
      let captured = LifetimeProbe()
      weakCaptured = captured
      let handler: @Sendable (Event) -> Void = { _ in
        withExtendedLifetime(captured) {}
        delivered.increment()
      }
      switch (kind, context) {
      case (.token, .immediate): token = output!.subscribe(handler)
      case (.token, .queue): token = output!.subscribe(on: .queue(Self.queue), handler)
      case (.token, .main): token = output!.subscribe(on: .main) { handler($0) }
      case (.responder, .immediate): handle = output!.subscribe(responder!) { _, event in handler(event) }
      case (.responder, .queue):
        handle = output!.subscribe(responder!, on: .queue(Self.queue)) { _, event in handler(event) }
      case (.responder, .main): handle = output!.subscribe(responder!, on: .main) { _, event in handler(event) }
      }
    }
    weakOutput = output
    weakResponder = responder
    output!.send(make())
    output!.send(make())
    await suspendUntil { delivered.current >= 2 }
    switch ending {
    case .cancel:
      token?.cancel()
      handle?.cancel()
    case .tokenRelease:
      token = nil
      handle = nil  // does not end a responder-owned subscription; the responder's release below does
    case .responderDeinit:
      responder = nil
    case .outputReleasedFirst:
      output = nil
    }
    var leftovers: [String] = []
    token = nil
    handle = nil
    responder = nil
    if let output {
      output.send(make())  // meets the dead responder, if any, and prunes it
      let freed = await suspendUntil {
        weakResponder == nil && weakCaptured == nil && LiveObjects.count("Output.Entry", for: Event.self) == 0
          && LiveObjects.count("DeliveryLane", for: Event.self) == 0
      }
      if !freed {
        leftovers.append(
          "with the output alive: responder \(weakResponder == nil ? "freed" : "ALIVE"), handler captures "
            + "\(weakCaptured == nil ? "freed" : "ALIVE"), \(liveObjectsDescription(for: Event.self))")
      }
    }
    output = nil
    let freed = await suspendUntil {
      weakOutput == nil && weakResponder == nil && weakCaptured == nil && LiveObjects.total(for: Event.self) == 0
    }
    if !freed {
      leftovers.append(
        "at the end: output \(weakOutput == nil ? "freed" : "ALIVE"), responder "
          + "\(weakResponder == nil ? "freed" : "ALIVE"), handler captures \(weakCaptured == nil ? "freed" : "ALIVE"), "
          + liveObjectsDescription(for: Event.self))
    }
    return leftovers
  }

  @Test func everyWayASubscriptionEndsFreesEverything() async {
    // The combinations run one after another: they share this test's event type, whose live objects must be 0
    // after each.
    struct Event: Sendable {
      let payload = LifetimeProbe()
    }
    for kind in Kind.allCases {
      for ending in Ending.allCases {
        for context in Context.allCases {
          let leftovers = await leftovers({ Event() }, kind: kind, ending: ending, context: context)
          #expect(leftovers.isEmpty, "\(kind) subscription, \(context) delivery, ended by \(ending): \(leftovers)")
        }
      }
    }
  }

  @Test(.countsLiveObjects) func cancelledTokenStillHeldReleasesItsHandlerAndLeavesOnlyTheOutput() {
    struct Event: Sendable {}
    let output = Output<Event>()
    weak var captured: LifetimeProbe?
    var tokens = Set<EventSubscription>()
    do {
      let probe = LifetimeProbe()
      captured = probe
      output.subscribe { _ in withExtendedLifetime(probe) {} }.store(in: &tokens)
    }
    output.send(Event())
    for token in tokens { token.cancel() }
    #expect(captured == nil, "a cancelled token kept its handler's captures alive")
    #expect(LiveObjects.count("Output.Entry", for: Event.self) == 0)
    #expect(LiveObjects.count("Output", for: Event.self) == 1)
    withExtendedLifetime(tokens) {}
  }

  @Test func operatorsValuesAndReplayFreeEverythingWhenTheyEnd() async {
    struct Event: Sendable, Equatable {
      var value: Int
    }
    weak var weakOutput: Output<Event>?
    weak var weakResponder: Recorder<Int>?
    do {
      let output = Output<Event>(replay: 2)
      weakOutput = output
      output.send(Event(value: 1))
      let responder = Recorder<Int>()
      weakResponder = responder
      output.readOnly.filter { $0.value > 0 }.map(\.value).removeDuplicates().subscribe(responder)
      let token = output.compactMap { $0.value > 1 ? $0 : nil }.subscribe { _ in }
      let task = Task {
        for await event in output.values where event.value == 3 { break }
      }
      #expect(await suspendUntil { output.subscriberCount == 3 })
      output.send(Event(value: 2))
      output.send(Event(value: 3))
      await task.value
      token.cancel()
      #expect(responder.events == [1, 2, 3])
    }
    #expect(weakOutput == nil)
    #expect(weakResponder == nil)
    await expectNoLiveObjects(for: Event.self)
  }

  @Test(.countsLiveObjects) func subscribeCancelCyclesLeaveNoLiveObjects() async {
    // 100 000 cycles of every kind of subscription, cancelled every way, on one output; then the output goes too.
    struct Event: Sendable {}
    let cycles = stress(100_000)
    let queue = DispatchQueue(label: "cycles")
    var highest = 0
    do {
      let output = Output<Event>()
      let responder = Recorder<Event>()
      capturingEarlyReleaseWarnings {
        for cycle in 0..<cycles {
          switch cycle % 5 {
          case 0: output.subscribe { _ in }.cancel()
          case 1: _ = output.subscribe { _ in }  // released at once
          case 2: output.subscribe(responder).cancel()
          case 3: output.subscribe(on: .queue(queue)) { _ in }.cancel()
          default:
            let dying = Recorder<Event>()
            output.subscribe(dying)
          }
          if cycle % 64 == 0 {
            output.send(Event())
            highest = max(highest, LiveObjects.count("Output.Entry", for: Event.self))
          }
        }
      }
      queue.sync {}
      #expect(highest <= 256, "\(highest) entries alive at once; they should be freed as they end")
      #expect(output.subscriberCount == 0)
    }
    await expectNoLiveObjects(for: Event.self)
  }
}
