import BenchHarness
import Testing

@testable import Bench

extension BenchTestSuite {
  /// The `actor` scenario: bursts of events sent from a thread of the test's to actors, which apply them on the
  /// global concurrent executor.
  @Suite struct ActorScenarioTests {
    static let contenders = Scenario.actor.contenders.filter(\.isAvailable)

    /// What one workload delivered.
    struct Delivered: Sendable, Equatable {
      var unitsPerIteration: Int
      var completedUnits: Int
      var checksums: [Int]
    }

    @Test(arguments: contenders, [SendingPattern.bursts(events: 7), .bursts(events: 1)])
    func everyContenderDeliversEveryEventToEveryActorExactlyOnce(name: ContenderName, pattern: SendingPattern)
      async throws
    {
      let responderCount = 5
      let delivered = try await onAThreadOfItsOwn {
        let (responders, completion) = ActorResponder.crowd(
          count: responderCount, eventsPerBatch: pattern.eventsPerBatch)
        let contender = name.makeActorContender(responders: responders)
        let workload = ActorWorkload.make(
          name: name.name, pattern: pattern, responders: responders, completion: completion, timeout: .seconds(20),
          send: contender.send)
        workload.run(3)
        return Delivered(
          unitsPerIteration: workload.unitsPerIteration, completedUnits: workload.completedUnits(),
          checksums: waitForValue { await responders.checksums })
      }
      let events = 3 * pattern.eventsPerBatch
      // Every actor applied every event once: 0 + 1 + … + (events - 1) each, whatever the order.
      #expect(
        delivered
          == Delivered(
            unitsPerIteration: pattern.eventsPerBatch * responderCount, completedUnits: events * responderCount,
            checksums: Array(repeating: events * (events - 1) / 2, count: responderCount)))
    }

    @Test func theScenarioReportsATimeForEveryContender() async throws {
      let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(50), fixedIterations: 2)
      let figures = try #require(
        try await onAThreadOfItsOwn {
          try ActorScenario.measure(contenders: Self.contenders, responderCount: 3, plan: plan)
        })
      #expect(figures.count == Self.contenders.count)
      #expect(figures.allSatisfy { $0.median > 0 && $0.median.isFinite }, "\(figures)")
      #expect(figures.allSatisfy { $0.minimum <= $0.median && $0.median <= $0.maximum }, "\(figures)")
    }

    @Test func theRunnerWritesOneTimeRowPerContender() async throws {
      let arguments = try Arguments.parse(["--scenario", "actor", "--n", "2", "--iterations", "2"])
      let rows = try #require(
        try await onAThreadOfItsOwn {
          try Runner(arguments: arguments, progress: { _ in }, notice: { _ in }).run()
        })
      #expect(rows.map(\.contender) == Self.contenders.map(\.name))
      #expect(
        rows.allSatisfy {
          $0.scenario == "actor" && $0.n == 2 && $0.metric == Metric.nanosecondsPerDelivery.name && $0.unit == "ns"
        })
    }

    @Test func aContenderThatLosesEventsFailsTheMeasurementInsteadOfHanging() async throws {
      await #expect(throws: MeasurementFailure.self) {
        try await onAThreadOfItsOwn {
          let (responders, completion) = ActorResponder.crowd(count: 2, eventsPerBatch: 1)
          // Delivers only to the first actor: the batch never completes.
          let lossy = ActorWorkload.make(
            name: "lossy", pattern: .bursts(events: 1), responders: responders, completion: completion,
            timeout: .milliseconds(200), send: { event in Task { await responders[0].apply(event) } })
          let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(50), fixedIterations: 1)
          _ = try TimedComparison.measure([lossy], plan: plan)
        }
      }
    }

    @Test func aContenderThatRepeatsEventsFailsTheMeasurement() async throws {
      await #expect {
        try await onAThreadOfItsOwn {
          let (responders, completion) = ActorResponder.crowd(count: 2, eventsPerBatch: 3)
          // Applies every event twice to each actor before `send` returns.
          let repeating = ActorWorkload.make(
            name: "repeating", pattern: .bursts(events: 3), responders: responders, completion: completion,
            timeout: .seconds(20),
            send: { event in
              waitForValue {
                for responder in responders {
                  await responder.apply(event)
                  await responder.apply(event)
                }
              }
            })
          let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(50), fixedIterations: 1)
          _ = try TimedComparison.measure([repeating], plan: plan)
        }
      } throws: { error in
        // Six batches (a warm-up, five timed) of three events to two actors: 36 deliveries, each made twice.
        (error as? MeasurementFailure)?.message == "contender 'repeating' completed 72 units of work, expected 36"
      }
    }
  }
}
