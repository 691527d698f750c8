import Testing

@testable import Bench

extension BenchTestSuite {
  @Suite struct ArgumentsTests {
    @Test func noArgumentsRunEveryScenarioContenderAndDefaultN() throws {
      let arguments = try Arguments.parse([])
      #expect(arguments.scenarios == Scenario.allCases)
      #expect(arguments.contenders == nil)
      #expect(arguments.responderCounts(of: .fanout) == [1, 10, 100, 1000, 10_000])
      #expect(arguments.responderCounts(of: .mainActor) == [1, 10, 100, 1000])
      #expect(arguments.responderCounts(of: .mainActorPaced) == [1, 10, 100, 1000])
      #expect(arguments.responderCounts(of: .actor) == [1, 10, 100, 1000])
      let quick = try Arguments.parse(["--quick"])
      #expect(quick.responderCounts(of: .fanout) == [1, 10, 100, 1000, 10_000])
      #expect(quick.responderCounts(of: .mainActor) == [1, 10, 100])
      #expect(quick.responderCounts(of: .actor) == [1, 10, 100])
      #expect(arguments.iterations == nil)
      #expect(!arguments.rendersDocs && !arguments.checksDocs)
      #expect(!arguments.isQuick && !arguments.showsHelp)
      for scenario in Scenario.allCases {
        #expect(arguments.contenders(of: scenario) == scenario.contenders)
      }
    }

    @Test func everyOptionIsRead() throws {
      let arguments = try Arguments.parse([
        "--quick", "--scenario", "fanout", "--contender", "output", "--n", "100", "--iterations", "1000",
        "--json", "r.json", "--csv", "r.csv", "--svg", "r.svg", "--compare", "old.json", "--fail-on-regression",
        "--peers", "peers.json",
      ])
      #expect(arguments.isQuick)
      #expect(arguments.scenarios == [.fanout])
      #expect(arguments.contenders == [.output])
      #expect(arguments.responderCounts(of: .mainActor) == [100])
      #expect(arguments.iterations == 1000)
      #expect(arguments.jsonPath == "r.json")
      #expect(arguments.csvPath == "r.csv")
      #expect(arguments.svgPath == "r.svg")
      #expect(arguments.comparePath == "old.json")
      #expect(arguments.failsOnRegression)
      #expect(arguments.peersPath == "peers.json")
      #expect(arguments.contenders(of: .fanout) == [.output])
    }

    @Test func valuesMayFollowAnEqualsSign() throws {
      let arguments = try Arguments.parse(["--n=10,1", "--scenario=memory", "--json=out.json"])
      #expect(arguments.responderCounts == [1, 10])
      #expect(arguments.scenarios == [.memory])
      #expect(arguments.jsonPath == "out.json")
    }

    @Test func listsAreSortedIntoReportOrderAndCountsDeduplicated() throws {
      let arguments = try Arguments.parse(["--scenario", "memory,fanout", "--n", "1000,10,1_000"])
      #expect(arguments.scenarios == [.fanout, .memory])
      #expect(arguments.responderCounts == [10, 1000])
    }

    @Test func aContenderAloneSelectsTheScenariosItTakesPartIn() throws {
      let arguments = try Arguments.parse(["--contender", "output"])
      #expect(arguments.scenarios == [.fanout, .mainActor, .mainActorPaced, .actor, .subscribeCancel, .memory])
      let message = try Arguments.parse(["--contender", "main-actor-message"])
      #expect(message.scenarios == [.fanout, .sourceFanout, .mainActor, .mainActorPaced])
      let hop = try Arguments.parse(["--contender", "main-queue-async,async-stream"])
      #expect(hop.scenarios == [.mainActor, .mainActorPaced, .actor])
      let asyncMessage = try Arguments.parse(["--contender", "async-message"])
      #expect(asyncMessage.scenarios == [.actor])
      let perObserver = try Arguments.parse(["--contender", "per-observer"])
      #expect(perObserver.scenarios == [.sourceFanout, .upstream, .subscribeCancel, .memory])
    }

    @Test func helpWinsOverEverythingElse() throws {
      #expect(try Arguments.parse(["--help"]).showsHelp)
      #expect(try Arguments.parse(["-h"]).showsHelp)
      #expect(try Arguments.parse(["--bogus", "--help"]).showsHelp)
    }

    @Test(arguments: [
      (["--bogus"], "'--bogus'"),
      (["-x"], "'-x'"),
      (["fanout"], "'fanout'"),
      (["--quick", "--quick"], "'--quick' given more than once"),
      (["--quick=yes"], "'--quick' takes no value"),
      (["--n", "10", "--n", "100"], "'--n' given more than once"),
      (["--scenario"], "'--scenario' needs a value"),
      (["--scenario", "--quick"], "'--scenario' needs a value"),
      (["--scenario="], "'--scenario' needs a value"),
      (["--scenario", "fanot"], "unknown name 'fanot' for '--scenario'"),
      (["--scenario", "fanout,"], "unknown name '' for '--scenario'"),
      (["--contender", "outptu"], "unknown name 'outptu' for '--contender'"),
      (["--contender", "broadcaster", "--scenario", "fanout"], "contender 'broadcaster' is not in the selected"),
      (["--contender", "output", "--scenario", "fanout,upstream"], "scenario 'upstream' has none of"),
      (["--n"], "'--n' needs a number"),
      (["--n", "0"], "'0' is not a whole number from 1 to 100000 for '--n'"),
      (["--n", "-5"], "'-5' is not a whole number"),
      (["--n", "+5"], "'+5' is not a whole number"),
      (["--n", "ten"], "'ten' is not a whole number"),
      (["--n", "1.5"], "'1.5' is not a whole number"),
      (["--n", "100001"], "'100001' is not a whole number from 1 to 100000"),
      (["--n", "10,,100"], "'' is not a whole number"),
      (["--iterations", "0"], "'0' is not a whole number from 1 to 1000000000 for '--iterations'"),
      (["--iterations", "many"], "'many' is not a whole number"),
      (["--iterations"], "'--iterations' needs a number"),
      (["--json"], "'--json' needs a value"),
      (["--csv", ""], "'--csv' needs a value"),
      (["--svg"], "'--svg' needs a value"),
      (["--compare"], "'--compare' needs a value"),
    ])
    func badArgumentsAreRefusedWithAMessageNamingThem(commandLine: [String], message: String) {
      #expect {
        try Arguments.parse(commandLine)
      } throws: { error in
        (error as? ArgumentError)?.message.contains(message) == true
      }
    }

    @Test func renderingTheDocsTakesOnlyACheckFlag() throws {
      let render = try Arguments.parse(["--render-docs"])
      #expect(render.rendersDocs && !render.checksDocs)
      let check = try Arguments.parse(["--check", "--render-docs"])
      #expect(check.rendersDocs && check.checksDocs)
      for commandLine in [
        ["--render-docs", "--quick"], ["--render-docs", "--json", "r.json"], ["--n", "1", "--render-docs"],
      ] {
        #expect {
          try Arguments.parse(commandLine)
        } throws: { error in
          (error as? ArgumentError)?.message.contains("does not go with '--render-docs'") == true
        }
      }
      #expect {
        try Arguments.parse(["--check"])
      } throws: { error in
        (error as? ArgumentError)?.message == "option '--check' goes only with '--render-docs'"
      }
    }

    @Test func theMainActorScenariosAreNamedAndTheirContendersSelectable() throws {
      let arguments = try Arguments.parse([
        "--scenario", "main-actor-paced,main-actor", "--contender", "output,main-queue-async",
      ])
      #expect(arguments.scenarios == [.mainActor, .mainActorPaced])
      #expect(arguments.contenders(of: .mainActor) == [.mainQueueAsync, .output])
      #expect(Scenario.mainActor.reference == .mainQueueAsync)
      #expect(Scenario.mainActor.metrics == [.nanosecondsPerDelivery, .mainQueueBlocksPerEvent])
      #expect(Scenario.mainActor.sendingPattern == .bursts(events: 100))
      #expect(Scenario.mainActorPaced.sendingPattern == .oneAtATime)
    }

    @Test func theActorScenarioIsNamedAndItsContendersSelectable() throws {
      let arguments = try Arguments.parse(["--scenario", "actor", "--contender", "output,async-message", "--quick"])
      #expect(arguments.scenarios == [.actor])
      #expect(arguments.contenders(of: .actor) == [.asyncMessage, .output])
      #expect(arguments.responderCounts(of: .actor) == [1, 10, 100])
      #expect(Scenario.actor.contenders == [.asyncStream, .asyncMessage, .output])
      #expect(Scenario.actor.reference == .asyncStream)
      #expect(Scenario.actor.metrics == [.nanosecondsPerDelivery])
      #expect(Scenario.actor.sendingPattern == .bursts(events: 100))
      #expect(Scenario.actor.waitsForDelivery && !Scenario.actor.sendsToTheMainActor)
      #expect {
        try Arguments.parse(["--scenario", "actor", "--contender", "main-queue-async"])
      } throws: { error in
        (error as? ArgumentError)?.message
          == "contender 'main-queue-async' is not in the selected scenarios; it takes part in: main-actor, "
          + "main-actor-paced"
      }
    }

    @Test func failingOnRegressionNeedsSomethingToCompareWith() {
      #expect(throws: ArgumentError.self) { try Arguments.parse(["--fail-on-regression"]) }
      #expect(throws: ArgumentError.self) { try Arguments.parse(["--compare", "a.json", "--fail-on-regression=yes"]) }
      #expect((try? Arguments.parse(["--compare", "a.json"]))?.failsOnRegression == false)
    }
  }
}
