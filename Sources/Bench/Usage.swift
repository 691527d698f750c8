import BenchHarness

/// The text `--help` prints.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum Usage {
  /// The line a bad command line prints after its error.
  static let helpPointer = "Run 'swift run -c release Bench --help' for the options."

  static var text: String {
    let indent = String(repeating: " ", count: 20)
    let scenarios = Scenario.allCases.map { scenario in
      "  \(scenario.name.leftAligned(width: 18))\(scenario.summary)\n\(indent)contenders: "
        + scenario.contenders.map(\.name).joined(separator: ", ")
    }
    // Scenarios that share their contenders' legends are listed under one title.
    let shared: [Scenario: String] = [
      .mainActor: "main-actor, main-actor-paced", .overload: "overload, overload-main",
    ]
    let unlisted: Set<Scenario> = [.upstream, .mainActorPaced, .overloadMain]
    let legend = Scenario.allCases.filter { !unlisted.contains($0) }.map { scenario in
      let title = shared[scenario] ?? scenario.name
      let lines = scenario.contenders.map { name in
        "    \(name.name.leftAligned(width: 20))\(name.legend(in: scenario))"
      }
      return "  \(title):\n" + lines.joined(separator: "\n")
    }
    let full = MeasurementPlan.full.repetitions
    let quick = MeasurementPlan.quick.repetitions
    let counts = Scenario.defaultResponderCounts.map(String.init).joined(separator: ",")
    let threshold = Comparison.thresholdPercent
    let overloadTime = OverloadScenario.durationDescription
    return """
      USAGE: swift run -c release Bench [options]

      Measures the cost of delivering events to N responders, for every contender of every scenario, and prints
      a table per scenario and figure, each figure with its ratio to the scenario's reference contender (named
      above the table) at the same N. On a terminal one progress line on stderr rewrites itself; in a pipe or
      with CI set, nothing is printed before the tables.

      OPTIONS:
        --quick                  Short repetitions; the whole run finishes in under 20 s.
        --scenario NAME[,NAME]   Run only these scenarios.
        --contender NAME[,NAME]  Run only these contenders.
        --n N[,N]                Responder counts (default: \(counts); for main-actor, main-actor-paced and
                                 actor 1,10,100,1000, and 1,10,100 with --quick; for overload and overload-main
                                 1,10,100, and 1,10 with --quick).
        --iterations K           Events (fanout, source-fanout), cycles (subscribe-cancel) or batches
                                 (main-actor, actor: bursts; main-actor-paced: single events) per repetition,
                                 instead of calibrating to a few milliseconds. With one scenario, contender and N,
                                 the run is a fixed amount of work for a profiler such as valgrind.
        --json PATH              Write the results as JSON (schema 1).
        --csv PATH               Write the results as CSV.
        --svg PATH               Draw ns per delivery against N, log-log, for fanout, source-fanout and
                                 main-actor.
        --compare OLD.json       Print each figure's change against an earlier --json run. A figure is a
                                 regression only outside both runs' noise: more than \(threshold)% worse,
                                 its fastest repetition slower than the old run's slowest, more than
                                 \(threshold)% worse against its scenario's reference contender (times as
                                 much as the reference itself moved), and still so when measured again
                                 \(Comparison.confirmations) times (Benchmarks/METHODOLOGY.md).
        --fail-on-regression     With --compare: exit with status 1 if any figure regressed.
        --peers PEERS.json       Show the rows of a Benchmarks/Peers --json run beside this run's, in the
                                 tables and the --svg chart (not in --json or --csv).
        --render-docs            Measure nothing: rewrite the figure tables between <!-- figures:SCENARIO -->
                                 and <!-- /figures --> in README.md, Benchmarks/ and the DocC catalogs, and
                                 Benchmarks/chart.svg, from Benchmarks/results.json (and Benchmarks/peers.json).
                                 Run from the package root.
        --check                  With --render-docs: change nothing; exit with status 1 if a table or the chart
                                 is out of date.
        -h, --help               Print this text.

      SCENARIOS:
      \(scenarios.joined(separator: "\n"))

      CONTENDERS:
      \(legend.joined(separator: "\n"))

      Each figure is the median of \(full) timed repetitions (\(quick) with --quick) after a warm-up; every
      contender of a scenario is measured in the same run, repetitions interleaved, with an idle second thread
      alive as in any app (glibc's locks skip their atomics in a single-threaded process). fanout and
      source-fanout run on the main actor. main-actor and main-actor-paced send from Bench's own thread while the
      main thread's run loop serves the main queue; they also report main-queue blocks per event, counted at
      libdispatch's enqueue functions for every contender alike (Linux, builds without a sanitizer). actor sends
      from Bench's own thread to actors on the global concurrent executor and waits until every actor has applied
      every event of a burst, counting deliveries, as async-message delivers in no particular order. upstream
      counts, and memory reads the heap around subscribing (Benchmarks/METHODOLOGY.md). overload and
      overload-main run each contender once per N: Bench's own thread sends as fast as it can for
      \(overloadTime) to subscribers that are slower, then waits until they have drained; they report the
      events sent, delivered and dropped (sent × N = delivered + dropped, or the run fails), the most that waited
      for one subscriber, and the heap's peak growth. --iterations does not apply to upstream, memory, overload
      and overload-main.
      Exit status: 0 on success, 1 if a measurement or a file failed (or, with --fail-on-regression, a figure
      regressed; with --render-docs --check, a table or the chart is out of date), 2 on a bad command line.

      EXAMPLES:
        swift run -c release Bench --quick
        swift run -c release Bench --scenario main-actor,main-actor-paced --quick
        swift run -c release Bench --scenario actor --quick
        swift run -c release Bench --scenario overload,overload-main --quick
        swift run -c release Bench --json results.json --svg results.svg
        swift run -c release Bench --compare results.json --fail-on-regression
        swift run -c release Bench --peers Benchmarks/peers.json --svg chart.svg
        swift run -c release Bench --render-docs
        valgrind --tool=callgrind .build/release/Bench --scenario fanout --contender output --n 100 --iterations 10000

      """
  }
}
