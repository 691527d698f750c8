import BenchHarness
import Dispatch
import Testing

@testable import Bench

extension BenchTestSuite {
  /// The main-actor scenarios: events sent from a test thread to responders on the main actor, which the test
  /// runner's main queue serves.
  @Suite struct MainActorScenarioTests {
    static let contenders = Scenario.mainActor.contenders

    @Test(arguments: contenders, [SendingPattern.bursts(events: 7), .oneAtATime])
    func everyContenderDeliversEveryEventToEveryResponderOnTheMainActor(
      name: ContenderName, pattern: SendingPattern
    ) {
      let responderCount = 5
      let (contender, responders, completion) = MainActorHop.run {
        let (responders, completion) = MainActorResponder.crowd(count: responderCount)
        return (name.makeMainActorContender(responders: responders), responders, completion)
      }
      // Generous: under ThreadSanitizer, with every test started at once, a main-actor task waited more than 20 s to
      // run. Only a contender that loses events reaches the limit (the limit itself is tested below, with 200 ms).
      let workload = MainActorWorkload.make(
        name: name.name, pattern: pattern, responders: responders, completion: completion, timeout: .seconds(180),
        send: contender.send)
      workload.run(3)
      let events = 3 * pattern.eventsPerBatch
      #expect(workload.unitsPerIteration == pattern.eventsPerBatch * responderCount)
      #expect(workload.completedUnits() == events * responderCount)
      // Every responder saw every event: 0 + 1 + … + (events - 1) each.
      let checksums = MainActorHop.run { responders.map(\.checksum) }
      #expect(checksums == Array(repeating: events * (events - 1) / 2, count: responderCount))
    }

    @Test func theScenarioReportsTimeAndBlocksForEveryContender() throws {
      let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(50), fixedIterations: 2)
      for scenario in [Scenario.mainActor, .mainActorPaced] {
        let figures = try MainActorScenario.measure(
          scenario, contenders: Self.contenders, responderCount: 3, plan: plan)
        #expect(figures.count == Self.contenders.count)
        #expect(figures.allSatisfy { $0.time.median > 0 && $0.time.median.isFinite }, "\(scenario): \(figures)")
        guard MainQueueBlocks.isCounting else {
          #expect(figures.allSatisfy { $0.count == nil })
          continue
        }
        let blocks = Dictionary(uniqueKeysWithValues: zip(Self.contenders, figures.map { $0.count?.median ?? 0 }))
        // At least: other suites of the same test process may hand the main queue blocks of their own meanwhile.
        #expect(blocks[.mainQueueAsync, default: 0] >= 3, "one block per responder per event")
        #expect(blocks[.mainActorMessage, default: 0] >= 1, "one task per event")
        #expect(blocks[.output, default: 0] > 0, "deliveries from another thread go through the main queue")
      }
    }

    @Test func theRunnerWritesBothFiguresOfTheMainActorScenarios() throws {
      var arguments = try Arguments.parse(["--scenario", "main-actor", "--n", "2", "--iterations", "2"])
      arguments.contenders = [.mainQueueAsync, .output]
      let rows = try Runner(arguments: arguments, progress: { _ in }, notice: { _ in }).run()
      let timed = rows.filter { $0.metric == Metric.nanosecondsPerDelivery.name }
      #expect(timed.map(\.contender) == ["main-queue-async", "output"])
      #expect(timed.allSatisfy { $0.scenario == "main-actor" && $0.n == 2 && $0.unit == "ns" })
      let blocks = rows.filter { $0.metric == Metric.mainQueueBlocksPerEvent.name }
      #expect(blocks.map(\.contender) == (MainQueueBlocks.isCounting ? ["main-queue-async", "output"] : []))
      #expect(blocks.allSatisfy { $0.unit == "blocks" })
    }

    @Test func aContenderThatLosesEventsFailsTheMeasurementInsteadOfHanging() throws {
      let (responders, completion) = MainActorHop.run { MainActorResponder.crowd(count: 2) }
      // Delivers only to the first responder: the batch never completes.
      let lossy = MainActorWorkload.make(
        name: "lossy", pattern: .oneAtATime, responders: responders, completion: completion,
        timeout: .milliseconds(200),
        send: { event in DispatchQueue.main.async { responders[0].handle(event) } })
      let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(50), fixedIterations: 1)
      #expect(throws: MeasurementFailure.self) {
        try TimedComparison.measure([lossy], plan: plan)
      }
    }

    @Test(.enabled(if: MainQueueBlocks.isCounting, "main-queue blocks are counted on Linux without a sanitizer"))
    func theBlockCountSeesDispatchAndMainActorTasks() async {
      let before = MainQueueBlocks.enqueued
      DispatchQueue.main.async {}
      await Task { @MainActor in }.value
      // At least: other suites may hand the main queue blocks of their own meanwhile.
      #expect(MainQueueBlocks.enqueued >= before + 2)
    }

    @Test func blocksAreCountedExactlyWhereTheCountExists() {
      #expect(MainQueueBlocks.isCounting == (MainQueueBlocks.enqueued >= 0))
    }
  }
}
