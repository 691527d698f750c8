import Foundation
import PeersHarness

// Usage: swift run -c release --scratch-path .build Peers [--quick] [--n N[,N]] [--json PATH]
// Measures each peer with Bench's own timing code (BenchHarness) and writes rows in Bench's JSON shape. One line per
// figure goes to standard error as it is measured. The main-actor scenarios deliver through the main queue, so the
// main thread serves it (its run loop) and the measurements run on a thread of their own.

let usage = """
  usage: Peers [--quick] [--n N[,N...]] [--json PATH]
    --quick      5 repetitions of about 2 ms instead of 15 of about 10 ms, as Bench --quick
    --n          responder counts (default: 1,10,100,1000,10000; for main-actor and main-actor-paced 1,10,100,1000,
                 and 1,10,100 with --quick, as Bench)
    --json PATH  write the rows in Bench's JSON shape

  """

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("Peers: error: \(message)\n\(usage)".utf8))
  exit(2)
}

/// What the command line asks for.
struct Options: Sendable {
  var isQuick = false
  var responderCounts: [Int]?
  var jsonPath: String?

  init(_ commandLine: [String]) {
    var arguments = commandLine[...]
    while let argument = arguments.popFirst() {
      switch argument {
      case "--quick": isQuick = true
      case "--n":
        guard let value = arguments.popFirst() else { fail("'--n' needs a number") }
        let counts = value.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 && $0 <= 100_000 }
        guard !counts.isEmpty, counts.count == value.split(separator: ",", omittingEmptySubsequences: false).count
        else {
          fail("'\(value)' is not a list of whole numbers from 1 to 100000 for '--n'")
        }
        responderCounts = Array(Set(counts)).sorted()
      case "--json":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("'--json' needs a path") }
        jsonPath = value
      case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
      default: fail("unknown argument '\(argument)'")
      }
    }
  }

  var plan: MeasurementPlan { isQuick ? .quick : .full }

  func responderCounts(sendsToTheMainActor: Bool) -> [Int] {
    if let responderCounts { return responderCounts }
    guard sendsToTheMainActor else { return [1, 10, 100, 1000, 10_000] }
    return isQuick ? [1, 10, 100] : [1, 10, 100, 1000]
  }
}

/// One scenario of Bench's that the peers take part in.
struct PeerScenario {
  var name: String
  var pattern: SendingPattern?
  var workloads: (Int) -> [TimedWorkload]
}

func fanoutWorkloads(responderCount: Int) -> [TimedWorkload] {
  var workloads = [
    FanoutPeers.subject(responderCount: responderCount), FanoutPeers.share(responderCount: responderCount),
  ]
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
    workloads.append(AsyncSharePeers.share(responderCount: responderCount))
  }
  return workloads
}

func measure(_ options: Options) {
  let scenarios = [
    PeerScenario(name: "fanout", pattern: nil, workloads: fanoutWorkloads),
    PeerScenario(
      name: "source-fanout", pattern: nil,
      workloads: { [SourceFanoutPeers.subject(responderCount: $0), SourceFanoutPeers.share(responderCount: $0)] }),
    PeerScenario(
      name: "main-actor", pattern: .bursts,
      workloads: { [MainActorPeers.receiveOn(responderCount: $0, pattern: .bursts)] }),
    PeerScenario(
      name: "main-actor-paced", pattern: .oneAtATime,
      workloads: { [MainActorPeers.receiveOn(responderCount: $0, pattern: .oneAtATime)] }),
  ]
  var rows: [ResultRow] = []
  for scenario in scenarios {
    for responderCount in options.responderCounts(sendsToTheMainActor: scenario.pattern != nil) {
      let workloads = scenario.workloads(responderCount)
      let figures: [TimedComparison.Figures]
      do {
        figures = try TimedComparison.measureFigures(workloads, plan: options.plan)
      } catch {
        FileHandle.standardError.write(Data("Peers: error: \(error.message)\n".utf8))
        exit(1)
      }
      for (workload, figure) in zip(workloads, figures) {
        var line = "\(scenario.name)  N = \(responderCount)  \(workload.name)  "
        line += FigureFormat.value(figure.time.median, unit: "ns") + " per delivery"
        rows.append(
          ResultRow(
            scenario: scenario.name, contender: workload.name, n: responderCount, metric: "ns_per_delivery",
            value: figure.time.median, unit: "ns", min: figure.time.minimum, max: figure.time.maximum))
        if let blocks = figure.count {
          line += ", " + FigureFormat.number(blocks.median) + " main-queue blocks per event"
          rows.append(
            ResultRow(
              scenario: scenario.name, contender: workload.name, n: responderCount,
              metric: "main_queue_blocks_per_event", value: blocks.median, unit: "blocks", min: blocks.minimum,
              max: blocks.maximum))
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
      }
    }
  }
  guard let jsonPath = options.jsonPath else { return }
  #if DEBUG
    let build = "debug"
  #else
    let build = "release"
  #endif
  #if os(Linux)
    let system = "Linux"
  #else
    let system = "Darwin"
  #endif
  let report = BenchReport(
    toolchain: "\(system), \(build) build; peers: OpenCombine 0.14, swift-async-algorithms 1.1",
    date: ISO8601DateFormatter().string(from: Date()), machine: Machine.description, results: rows)
  do {
    try Data(JSONReport.render(report).utf8).write(to: URL(fileURLWithPath: jsonPath))
  } catch {
    FileHandle.standardError.write(Data("Peers: error: cannot write '\(jsonPath)': \(error)\n".utf8))
    exit(1)
  }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let measuring = Thread {
  measure(options)
  exit(0)
}
measuring.stackSize = 8 << 20
measuring.start()
// The main thread serves the main queue through its run loop, as an app's does; `dispatchMain()` should it return.
RunLoop.main.run()
dispatchMain()
