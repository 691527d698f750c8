import EventBusTestSupport
import Testing

@testable import EventBus

/// G3: nested sends reach every subscriber in the same first-in first-out order; long chains of
/// reentrant sends run with constant stack depth.
@Suite struct ReentrancyReliabilityTests {
  private struct Call: Sendable, Equatable {
    var subscriber: Int
    var event: Int
  }

  @Test func nestedSendsReachEverySubscriberAsZeroOneTwoThree() {
    // Subscriber 0 sends 1 while handling 0, subscriber 5 sends 2 while handling 0, subscriber 3 sends 3 while
    // handling 1. Every subscriber sees [0, 1, 2, 3], and each event reaches all before the next reaches any.
    let output = Output<Int>()
    let calls = Log<Call>()
    let recorders = (0..<8).map { _ in Recorder<Int>() }
    for (index, recorder) in recorders.enumerated() {
      output.subscribe(recorder) { recorder, event in
        recorder.handle(event: event)
        calls.append(Call(subscriber: index, event: event))
        switch (index, event) {
        case (0, 0): output.send(1)
        case (5, 0): output.send(2)
        case (3, 1): output.send(3)
        default: break
        }
      }
    }
    output.send(0)
    for (index, recorder) in recorders.enumerated() {
      #expect(recorder.events == [0, 1, 2, 3], "subscriber \(index)")
    }
    #expect(calls.elements == (0...3).flatMap { event in (0..<8).map { Call(subscriber: $0, event: event) } })
  }

  @Test func nestedSendsFromManyThreadsReachEverySubscriberInTheSameOrder() async {
    // Four threads send roots; while handling a root, subscriber 1 sends its first child and subscriber 2 its
    // second, and subscriber 0 sends a grandchild while handling the first child. Every subscriber sees one and the
    // same order, and each family in the order root, first child, second child, grandchild.
    struct Event: Sendable, Equatable, Hashable {
      var root: Int
      var generation: Int
    }
    let output = Output<Event>()
    let recorders = (0..<4).map { _ in Recorder<Event>() }
    for (index, recorder) in recorders.enumerated() {
      // `[weak output]`: the output owns this subscription until it notices the recorder is gone, so a strong capture
      // would be a cycle (found by LeakSanitizer; see Runtime Behavior, G3).
      output.subscribe(recorder) { [weak output] recorder, event in
        recorder.handle(event: event)
        switch (index, event.generation) {
        case (1, 0): output?.send(Event(root: event.root, generation: 1))
        case (2, 0): output?.send(Event(root: event.root, generation: 2))
        case (0, 1): output?.send(Event(root: event.root, generation: 3))
        default: break
        }
      }
    }
    let perThread = stress(2000)
    guard
      await runConcurrently(
        threads: 4,
        { thread in
          for sequence in 0..<perThread { output.send(Event(root: thread * perThread + sequence, generation: 0)) }
        })
    else { return }
    let reference = recorders[0].events
    #expect(reference.count == 4 * 4 * perThread)
    for (index, recorder) in recorders.enumerated().dropFirst() {
      #expect(recorder.events == reference, "subscriber \(index) saw another order")
    }
    var generationsSeen: [Int: [Int]] = [:]
    for event in reference {
      generationsSeen[event.root, default: []].append(event.generation)
    }
    let misordered = generationsSeen.filter { $0.value != [0, 1, 2, 3] }
    #expect(misordered.isEmpty, "families out of order: \(misordered.prefix(3))")
  }

  @Test func chainOf100000SendsThroughSeveralSubscribersRunsWithConstantStackDepth() async {
    // The last of four subscribers sends the next event. Run on a 256 KiB stack, where recursion would crash; the
    // depth check stops the chain with a message first.
    let output = Output<Int>()
    let last = 100_000
    let reached = (0..<4).map { _ in Counter() }
    let depths = LockedState<(baseline: Int, problem: String?)>((0, nil))
    var tokens: [EventSubscription] = []
    for index in 0..<4 {
      output.subscribe { value in
        reached[index].increment()
        guard index == 3 else { return }
        // Event 0 is delivered by `send` itself, later ones by the loop that drains the queue: compared from event 1.
        let depth = value > 0 && (value < 64 || value % 1000 == 0) ? currentStackDepth() : -1
        let stop = depths.withLock { state -> Bool in
          if value == 1 { state.baseline = depth }
          if depth >= 0, depth != state.baseline, state.problem == nil {
            state.problem = "stack depth \(depth) frames at event \(value), \(state.baseline) at event 1"
          }
          return state.problem != nil
        }
        if !stop, value < last { output.send(value + 1) }
      }.store(in: &tokens)
    }
    await runOnThread(stackSize: 256 << 10) { output.send(0) }
    let problem = depths.withLock { $0.problem }
    #expect(problem == nil, "G3: reentrant send recursed: \(problem ?? "")")
    #expect(reached.map(\.current) == Array(repeating: last + 1, count: 4))
  }

  @Test func chainOf100000SendsAlternatingBetweenTwoOutputsRunsWithConstantStackDepth() async {
    // a's handler sends on b (idle, so delivered at once, one level deeper); b's handler sends on a (busy, so
    // queued). The stack goes two outputs deep and no deeper.
    let a = Output<Int>()
    let b = Output<Int>()
    let last = 100_000
    let reached = Counter()
    let depths = LockedState<(baseline: Int, problem: String?)>((0, nil))
    let tokenA = a.subscribe { value in
      reached.increment()
      if value < last { b.send(value + 1) }
    }
    let tokenB = b.subscribe { value in
      reached.increment()
      // b's first event arrives while a's `send(0)` delivers event 0 itself; the later ones while a's drain loop
      // delivers, a few frames apart: compared from event 3.
      let depth = value > 1 && (value < 64 || value % 1001 == 0) ? currentStackDepth() : -1
      let stop = depths.withLock { state -> Bool in
        if value == 3 { state.baseline = depth }
        if depth >= 0, depth != state.baseline, state.problem == nil {
          state.problem = "stack depth \(depth) frames at event \(value), \(state.baseline) at event 3"
        }
        return state.problem != nil
      }
      if !stop, value < last { a.send(value + 1) }
    }
    await runOnThread(stackSize: 256 << 10) { a.send(0) }
    let problem = depths.withLock { $0.problem }
    #expect(problem == nil, "G3: sends across two outputs recursed: \(problem ?? "")")
    #expect(reached.current == last + 1)
    withExtendedLifetime((tokenA, tokenB)) {}
  }
}
