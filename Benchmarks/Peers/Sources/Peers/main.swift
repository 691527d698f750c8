import Foundation

// Usage: swift run -c release --scratch-path .build Peers [--quick] [--n N[,N]] [--json PATH]
// Prints one line per figure and writes them in the JSON shape of Bench (DESIGN.md §5).

let usage = "usage: Peers [--quick] [--n N[,N...]] [--json PATH]\n"
var isQuick = false
var responderCounts = [1, 10, 100, 1000, 10_000]
var jsonPath: String?

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("Peers: error: \(message)\n\(usage)".utf8))
  exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--quick": isQuick = true
  case "--n":
    guard let value = arguments.popFirst() else { fail("'--n' needs a number") }
    let counts = value.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
    guard !counts.isEmpty, counts.count == value.split(separator: ",").count else {
      fail("'\(value)' is not a list of positive whole numbers for '--n'")
    }
    responderCounts = counts.sorted()
  case "--json":
    guard let value = arguments.popFirst(), !value.isEmpty else { fail("'--json' needs a path") }
    jsonPath = value
  case "--help", "-h":
    print(usage, terminator: "")
    exit(0)
  default: fail("unknown argument '\(argument)'")
  }
}

let scenarios: [(name: String, workloads: (Int) -> [Timing.Workload])] = [
  ("fanout", { [FanoutPeers.subject(responderCount: $0), FanoutPeers.share(responderCount: $0)] }),
  ("source-fanout", { [SourceFanoutPeers.subject(responderCount: $0), SourceFanoutPeers.share(responderCount: $0)] }),
]
var rows: [String] = []
for scenario in scenarios {
  for responderCount in responderCounts {
    let workloads = scenario.workloads(responderCount)
    let figures = Timing.measure(
      workloads, repetitions: isQuick ? 5 : 11, target: isQuick ? .milliseconds(1) : .milliseconds(5))
    for (workload, value) in zip(workloads, figures) {
      print(
        "\(scenario.name)  N = \(responderCount)  \(workload.name)  \(String(format: "%.3f", value)) ns per delivery")
      rows.append(
        "    {\"scenario\": \"\(scenario.name)\", \"contender\": \"\(workload.name)\", \"n\": \(responderCount), "
          + "\"metric\": \"ns_per_delivery\", \"value\": \(String(format: "%.4f", value)), \"unit\": \"ns\"}")
    }
  }
}

if let jsonPath {
  #if compiler(>=6.3)
    let compiler = "Swift 6.3 or later"
  #else
    let compiler = "Swift 6.0–6.2"
  #endif
  #if os(Linux)
    let system = "Linux"
  #else
    let system = "Darwin"
  #endif
  #if DEBUG
    let build = "debug"
  #else
    let build = "release"
  #endif
  let date = ISO8601DateFormatter().string(from: Date())
  let json = """
    {
      "schema": 1,
      "toolchain": "\(compiler), \(system), \(build) build, OpenCombine 0.14 peers",
      "date": "\(date)",
      "results": [
    \(rows.joined(separator: ",\n"))
      ]
    }

    """
  do {
    try Data(json.utf8).write(to: URL(fileURLWithPath: jsonPath))
  } catch {
    FileHandle.standardError.write(Data("Peers: error: cannot write '\(jsonPath)': \(error)\n".utf8))
    exit(1)
  }
}
