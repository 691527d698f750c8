import BenchHarness
import Testing

@testable import Bench

extension BenchTestSuite {
  @Suite struct ContenderTests {
    /// Every contender of the scenarios that send on the responders' own thread, with its scenario.
    static let sendingContenders = [Scenario.fanout, .sourceFanout, .subscribeCancel].flatMap { scenario in
      scenario.contenders.map { (scenario, $0) }
    }
    static let churningContenders = Scenario.subscribeCancel.contenders

    @Test(arguments: sendingContenders, [1, 3, 17])
    func everyContenderDeliversEachEventToEveryResponderExactlyOnce(
      contender: (scenario: Scenario, name: ContenderName), responderCount: Int
    ) {
      let contender = contender.name.makeContender(in: contender.scenario, responderCount: responderCount)
      contender.send(events: 2)
      #expect(contender.deliveries == 0, "nothing is delivered before subscribing")
      contender.subscribeAll()
      contender.send(events: 5)
      #expect(contender.deliveries == 5 * responderCount)
      contender.send(events: 0)
      #expect(contender.deliveries == 5 * responderCount)
    }

    @Test(arguments: churningContenders, [1, 3, 17])
    func subscribeAndCancelLeavesTheCrowdAsItWas(name: ContenderName, responderCount: Int) throws {
      let contender = try #require(
        name.makeContender(in: .subscribeCancel, responderCount: responderCount) as? any ChurningContender)
      contender.subscribeAll()
      contender.subscribeAndCancel(cycles: 4)
      #expect(contender.cycles == 4)
      contender.send(events: 3)
      #expect(contender.deliveries == 3 * responderCount, "the spare responder must not be subscribed any more")
    }

    @Test func everyContenderOfEveryScenarioHasTheCapabilityItsScenarioNeeds() {
      for name in Scenario.subscribeCancel.contenders {
        #expect(name.makeContender(in: .subscribeCancel, responderCount: 1) is any ChurningContender, "\(name)")
      }
      for name in Scenario.upstream.contenders {
        #expect(name.makeContender(in: .upstream, responderCount: 1) is any UpstreamContender, "\(name)")
      }
    }

    @Test func theHarnessRunsEveryTimedScenarioAndChecksTheDeliveries() throws {
      let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(50), fixedIterations: 3)
      for scenario in [Scenario.fanout, .sourceFanout, .subscribeCancel] {
        let contenders = scenario.contenders
        let figures = try TimedScenario.measure(scenario, contenders: contenders, responderCount: 7, plan: plan)
        #expect(figures.count == contenders.count)
        #expect(figures.allSatisfy { $0.median > 0 && $0.median.isFinite }, "\(scenario): \(figures)")
        #expect(figures.allSatisfy { $0.minimum <= $0.median && $0.median <= $0.maximum }, "\(scenario): \(figures)")
      }
    }

    @Test func aContenderThatSkipsWorkFailsTheMeasurement() {
      let cheat = TimedWorkload(name: "output", unitsPerIteration: 10, run: { _ in }, completedUnits: { 0 })
      let plan = MeasurementPlan(repetitions: 5, repetitionTarget: .microseconds(10), fixedIterations: 2)
      #expect(throws: MeasurementFailure.self) {
        try TimedComparison.measure([cheat], plan: plan)
      }
    }

    @Test func calibrationGrowsTheIterationsToTheTarget() {
      final class Counter {
        var units = 0
      }
      let counter = Counter()
      let workload = TimedWorkload(
        name: "direct-call", unitsPerIteration: 1,
        run: { iterations in
          for _ in 0..<iterations {
            counter.units += 1
            blackHole(counter.units)
          }
        },
        completedUnits: { counter.units })
      let calibration = TimedComparison.calibrate(workload, target: .milliseconds(2), clock: ContinuousClock())
      #expect(calibration.iterations > 1)
      #expect(calibration.iterationsSpent == counter.units)
    }
  }

  @Suite struct UpstreamTests {
    @Test(arguments: [1, 5, 40])
    func perObserverHoldsOneObserverPerResponderAndTheBroadcasterOne(responderCount: Int) throws {
      let figures = try UpstreamScenario.measure(
        contenders: [.perObserver, .broadcaster], responderCount: responderCount)
      #expect(figures == [Double(responderCount), 1])
    }
  }
}
