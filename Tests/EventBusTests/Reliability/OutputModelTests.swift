import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// random sequences of subscribe, cancel, send, release and reentrant sends or membership changes
/// from handlers, run on a real `Output` and on a reference model of who must receive what. On a divergence the
/// test prints the seed and the shortest failing sequence it can find.
///
/// Seeds run from a fixed base (or `EVENTBUS_SEED`, to replay a reported one) upwards.
@Suite struct OutputModelTests {
  private static let baseSeed: UInt64 = {
    guard let text = ProcessInfo.processInfo.environment["EVENTBUS_SEED"] else { return 0xE7E7_B005 }
    guard let seed = UInt64(text) else { fatalError("EVENTBUS_SEED must be an unsigned integer, not \"\(text)\"") }
    return seed
  }()

  @Test func randomSequencesMatchTheReferenceModel() {
    let seeds = stress(500)
    var reactionsFired = 0
    for offset in 0..<UInt64(seeds) {
      let seed = Self.baseSeed &+ offset
      var generator = SeededGenerator(seed: seed)
      let replay = [0, 0, 1, 3].randomElement(using: &generator)!
      let operations = Self.randomOperations(using: &generator)
      let outcome = Self.run(operations, replay: replay)
      reactionsFired += outcome.reactionsFired
      guard let divergence = outcome.divergence else { continue }
      let shortest = Self.shrink(operations, replay: replay)
      let shortestDivergence = Self.run(shortest, replay: replay).divergence ?? divergence
      Issue.record(
        """
        The output diverged from the reference model with seed \(seed) (rerun: EVENTBUS_SEED=\(seed)), replay \
        \(replay).
        Shortest failing sequence found (\(shortest.count) of \(operations.count) operations):
        \(shortest.enumerated().map { "  \($0 + 1). \($1)" }.joined(separator: "\n"))
        \(shortestDivergence)
        """)
      return
    }
    #expect(reactionsFired > seeds, "handlers reacted only \(reactionsFired) times; the sequences are too tame")
  }

  @Test func shrinkingFindsTheOperationsThatMatter() {
    // A divergence that needs exactly two of the operations: shrinking must throw the others away.
    let operations: [ModelOperation] = [
      .subscribe(0, .token), .send(0), .subscribe(1, .responder), .send(1), .cancel(0), .send(2), .send(3),
    ]
    let failsWhenBothPresent: ([ModelOperation]) -> Bool = { candidate in
      candidate.contains { if case .send(1) = $0 { true } else { false } }
        && candidate.contains { if case .cancel(0) = $0 { true } else { false } }
    }
    let shortest = Self.shrink(operations, failing: failsWhenBothPresent)
    #expect(shortest.map(\.description) == ["send 1", "cancel s0"])
  }

  // MARK: - Generating

  private static func randomOperations(using generator: inout SeededGenerator) -> [ModelOperation] {
    var operations: [ModelOperation] = []
    var labels: [Int] = []
    var nextLabel = 0
    var nextValue = 0
    var reactionValues: [Int] = []
    var nextReactionValue = 1000
    func newLabel() -> Int {
      defer { nextLabel += 1 }
      labels.append(nextLabel)
      return nextLabel
    }
    func kind() -> ModelKind { Bool.random(using: &generator) ? .token : .responder }
    for _ in 0..<Int.random(in: 4...40, using: &generator) {
      let roll = Int.random(in: 0..<100, using: &generator)
      guard let someLabel = labels.randomElement(using: &generator), roll >= 22 else {
        operations.append(.subscribe(newLabel(), kind()))
        continue
      }
      switch roll {
      case ..<50:
        operations.append(.send(nextValue))
        nextValue += 1
      case ..<58:
        operations.append(.cancel(someLabel))
      case ..<64:
        operations.append(.release(someLabel))
      default:
        let event =
          reactionValues.isEmpty || Int.random(in: 0..<10, using: &generator) < 7
          ? nextValue + Int.random(in: 0...2, using: &generator)
          : reactionValues.randomElement(using: &generator)!
        let target = labels.randomElement(using: &generator)!
        let reaction: ModelOperation.Reaction
        switch Int.random(in: 0..<100, using: &generator) {
        case ..<35:
          reaction = .send(nextReactionValue)
          reactionValues.append(nextReactionValue)
          nextReactionValue += 1
        case ..<60:
          reaction = .cancel(Bool.random(using: &generator) ? someLabel : target)
        case ..<75:
          reaction = .release(Bool.random(using: &generator) ? someLabel : target)
        default:
          reaction = .subscribe(newLabel(), kind())
        }
        operations.append(.react(label: someLabel, event: event, reaction: reaction))
      }
    }
    return operations
  }

  // MARK: - Running

  private struct Outcome {
    var divergence: String?
    var reactionsFired = 0
  }

  /// Runs `operations` on the model and on a real output, comparing after every top-level operation.
  private static func run(_ operations: [ModelOperation], replay: Int) -> Outcome {
    // The model releases token-owned subscriptions unused, on purpose: their warnings are captured, not printed.
    var outcome = Outcome()
    capturingEarlyReleaseWarnings(inFile: "EventBusTests/OutputModel.swift") {
      outcome = runUncaptured(operations, replay: replay)
    }
    return outcome
  }

  private static func runUncaptured(_ operations: [ModelOperation], replay: Int) -> Outcome {
    var model = ReferenceModel(replay: replay)
    var outcome = Outcome()
    do {
      let real = RealSystem(replay: replay)
      for (number, operation) in operations.enumerated() {
        model.apply(operation)
        real.apply(operation)
        let expected = model.received
        let actual = real.received
        for label in expected.keys.sorted() where expected[label] != actual[label] {
          outcome.divergence =
            "After operation \(number + 1) (\(operation)), s\(label) has received \(actual[label] ?? []); "
            + "the model says \(expected[label] ?? [])"
          return outcome
        }
        let count = real.output.subscriberCount
        if count != model.liveCount {
          outcome.divergence =
            "After operation \(number + 1) (\(operation)), subscriberCount is \(count); the model says \(model.liveCount)"
          return outcome
        }
      }
      outcome.reactionsFired = model.reactionsFired
      real.tearDown()
    }
    if LiveObjects.total(for: ModelEvent.self) != 0 {
      outcome.divergence = "After the run, leaked: \(liveObjectsDescription(for: ModelEvent.self))"
    }
    return outcome
  }

  // MARK: - Shrinking

  private static func shrink(_ operations: [ModelOperation], replay: Int) -> [ModelOperation] {
    shrink(operations) { run($0, replay: replay).divergence != nil }
  }

  /// Removes runs of operations, long ones first, for as long as the sequence still fails.
  private static func shrink(
    _ operations: [ModelOperation], failing: ([ModelOperation]) -> Bool
  ) -> [ModelOperation] {
    var current = operations
    var chunk = max(1, current.count / 2)
    while true {
      var removedAny = false
      var start = 0
      while start < current.count {
        var candidate = current
        candidate.removeSubrange(start..<min(start + chunk, current.count))
        if failing(candidate) {
          current = candidate
          removedAny = true
        } else {
          start += chunk
        }
      }
      if removedAny { continue }
      if chunk == 1 { return current }
      chunk /= 2
    }
  }
}
