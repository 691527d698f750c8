import BenchHarness
import Foundation

// Usage: swift run -c release --scratch-path .build Peers [--quick] [--n N[,N]] [--json PATH]
// Measures each peer with Bench's own timing loop (BenchHarness) and writes rows in Bench's JSON shape. One line per
// figure goes to standard error as it is measured.

let usage = """
  usage: Peers [--quick] [--n N[,N...]] [--json PATH]
    --quick      5 repetitions of about 2 ms instead of 15 of about 10 ms, as Bench --quick
    --n          responder counts (default: 1,10,100,1000,10000)
    --json PATH  write the rows in Bench's JSON shape

  """
var plan = MeasurementPlan.full
var responderCounts = [1, 10, 100, 1000, 10_000]
var jsonPath: String?

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("Peers: error: \(message)\n\(usage)".utf8))
  exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--quick": plan = .quick
  case "--n":
    guard let value = arguments.popFirst() else { fail("'--n' needs a number") }
    let counts = value.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 && $0 <= 100_000 }
    guard !counts.isEmpty, counts.count == value.split(separator: ",", omittingEmptySubsequences: false).count else {
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

func fanoutWorkloads(responderCount: Int) -> [TimedWorkload] {
  var workloads = [
    FanoutPeers.subject(responderCount: responderCount), FanoutPeers.share(responderCount: responderCount),
  ]
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
    workloads.append(AsyncSharePeers.share(responderCount: responderCount))
  }
  return workloads
}

let scenarios: [(name: String, workloads: (Int) -> [TimedWorkload])] = [
  ("fanout", fanoutWorkloads),
  ("source-fanout", { [SourceFanoutPeers.subject(responderCount: $0), SourceFanoutPeers.share(responderCount: $0)] }),
]
var rows: [ResultRow] = []
for scenario in scenarios {
  for responderCount in responderCounts {
    let workloads = scenario.workloads(responderCount)
    let figures: [Statistics.Summary]
    do {
      figures = try TimedComparison.measure(workloads, plan: plan)
    } catch {
      FileHandle.standardError.write(Data("Peers: error: \(error.message)\n".utf8))
      exit(1)
    }
    for (workload, figure) in zip(workloads, figures) {
      let line =
        "\(scenario.name)  N = \(responderCount)  \(workload.name)  "
        + FigureFormat.value(figure.median, unit: "ns") + " per delivery\n"
      FileHandle.standardError.write(Data(line.utf8))
      rows.append(
        ResultRow(
          scenario: scenario.name, contender: workload.name, n: responderCount, metric: "ns_per_delivery",
          value: figure.median, unit: "ns", min: figure.minimum, max: figure.maximum))
    }
  }
}

if let jsonPath {
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
    date: ISO8601DateFormatter().string(from: Date()), results: rows)
  do {
    try Data(JSONReport.render(report).utf8).write(to: URL(fileURLWithPath: jsonPath))
  } catch {
    FileHandle.standardError.write(Data("Peers: error: cannot write '\(jsonPath)': \(error)\n".utf8))
    exit(1)
  }
}
