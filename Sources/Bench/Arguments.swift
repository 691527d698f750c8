/// What the command line asks `Bench` to do.
///
/// ```
/// let arguments = try Arguments.parse(["--quick", "--scenario", "fanout", "--json", "results.json"])
/// ```
struct Arguments: Equatable, Sendable {
  /// `--help` or `-h`: print the usage and nothing else.
  var showsHelp = false
  /// `--quick`: short repetitions, the whole run under 20 s.
  var isQuick = false
  /// `--scenario`: the scenarios to run, in report order.
  var scenarios: [Scenario] = Scenario.allCases
  /// `--contender`: the contenders to run; `nil` runs every contender of each scenario.
  var contenders: [ContenderName]?
  /// `--n`: responder counts, ascending; `nil` measures each scenario at its default counts.
  var responderCounts: [Int]?
  /// `--iterations`: work per repetition instead of calibrating it.
  var iterations: Int?
  var jsonPath: String?
  var csvPath: String?
  var svgPath: String?
  /// `--compare`: an earlier `--json` file to compare with.
  var comparePath: String?
  /// `--fail-on-regression`: exit with status 1 when `--compare` finds a regression.
  var failsOnRegression = false
  /// `--peers`: a Peers `--json` file whose rows the table and the chart show beside this run's.
  var peersPath: String?
  /// `--render-docs`: rewrite the figure tables of the docs from the committed results instead of measuring.
  var rendersDocs = false
  /// `--check`: with `--render-docs`, change no file and fail if one is out of date.
  var checksDocs = false

  /// The largest `--n`: ten times the default maximum, beyond which a run takes minutes per figure.
  static let maximumResponderCount = 100_000
  /// The largest `--iterations`: the most a repetition may run (`MeasurementPlan.maximumIterations`).
  static let maximumIterations = 1_000_000_000

  /// The contenders of `scenario` this run measures, in report order.
  func contenders(of scenario: Scenario) -> [ContenderName] {
    let available = scenario.contenders.filter(\.isAvailable)
    guard let contenders else { return available }
    return available.filter(contenders.contains)
  }

  /// The responder counts this run measures `scenario` at.
  func responderCounts(of scenario: Scenario) -> [Int] {
    responderCounts ?? scenario.defaultResponderCounts(quick: isQuick)
  }
}

extension Arguments {
  /// Reads a command line (without the program name).
  ///
  /// Options take their value as the next argument or after `=` (`--n 100`, `--n=100`); lists are
  /// comma-separated. `--help` anywhere wins over everything else.
  ///
  /// - Throws: ``ArgumentError`` naming the first argument at fault.
  static func parse(_ commandLine: [String]) throws(ArgumentError) -> Arguments {
    var arguments = Arguments()
    if commandLine.contains(where: { $0 == "--help" || $0 == "-h" }) {
      arguments.showsHelp = true
      return arguments
    }
    var seen: Set<String> = []
    var scenarioSelection: [Scenario]?
    var remaining = commandLine[...]
    while let argument = remaining.popFirst() {
      guard argument.hasPrefix("-") else {
        throw ArgumentError(message: "unexpected argument '\(argument)'; options start with --")
      }
      let (option, inlineValue) = split(argument)
      guard Option.valueOptions.contains(option) || Option.flags.contains(option) else {
        throw ArgumentError(message: "unknown option '\(option)'")
      }
      guard seen.insert(option).inserted else {
        throw ArgumentError(message: "option '\(option)' given more than once")
      }
      if Option.flags.contains(option) {
        guard inlineValue == nil else {
          throw ArgumentError(message: "option '\(option)' takes no value, got '\(argument)'")
        }
        switch option {
        case Option.quick: arguments.isQuick = true
        case Option.renderDocs: arguments.rendersDocs = true
        case Option.check: arguments.checksDocs = true
        default: arguments.failsOnRegression = true
        }
        continue
      }
      let value = try value(of: option, inline: inlineValue, remaining: &remaining)
      switch option {
      case Option.scenario: scenarioSelection = try parseList(value, of: option, as: Scenario.self)
      case Option.contender: arguments.contenders = try parseList(value, of: option, as: ContenderName.self)
      case Option.responderCount:
        arguments.responderCounts = try parseCounts(value, of: option, maximum: maximumResponderCount)
      case Option.iterations: arguments.iterations = try parseCount(value, of: option, maximum: maximumIterations)
      case Option.json: arguments.jsonPath = value
      case Option.csv: arguments.csvPath = value
      case Option.svg: arguments.svgPath = value
      case Option.peers: arguments.peersPath = value
      default: arguments.comparePath = value
      }
    }
    if arguments.rendersDocs {
      if let other = seen.subtracting([Option.renderDocs, Option.check]).sorted().first {
        throw ArgumentError(message: "option '\(other)' does not go with '--render-docs', which measures nothing")
      }
      return arguments
    }
    if arguments.checksDocs {
      throw ArgumentError(message: "option '--check' goes only with '--render-docs'")
    }
    arguments.scenarios = try selectScenarios(scenarioSelection, contenders: arguments.contenders)
    if arguments.failsOnRegression && arguments.comparePath == nil {
      throw ArgumentError(message: "option '--fail-on-regression' needs '--compare OLD.json' to compare with")
    }
    return arguments
  }

  private enum Option {
    static let quick = "--quick"
    static let scenario = "--scenario"
    static let contender = "--contender"
    static let responderCount = "--n"
    static let iterations = "--iterations"
    static let json = "--json"
    static let csv = "--csv"
    static let svg = "--svg"
    static let compare = "--compare"
    static let failOnRegression = "--fail-on-regression"
    static let peers = "--peers"
    static let renderDocs = "--render-docs"
    static let check = "--check"
    static let flags: Set = [quick, failOnRegression, renderDocs, check]
    static let valueOptions: Set = [scenario, contender, responderCount, iterations, json, csv, svg, compare, peers]
  }

  /// `--option=value` as (`--option`, `value`); `--option` as (`--option`, nil).
  private static func split(_ argument: String) -> (option: String, value: String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func value(
    of option: String, inline: String?, remaining: inout ArraySlice<String>
  ) throws(ArgumentError) -> String {
    let what = option == Option.responderCount || option == Option.iterations ? "a number" : "a value"
    let value: String
    if let inline {
      value = inline
    } else if let next = remaining.first, !next.hasPrefix("--") {
      value = next
      remaining.removeFirst()
    } else {
      throw ArgumentError(message: "option '\(option)' needs \(what)")
    }
    guard !value.isEmpty else { throw ArgumentError(message: "option '\(option)' needs \(what), got ''") }
    return value
  }

  private static func parseList<Name: RawRepresentable & CaseIterable>(
    _ value: String, of option: String, as _: Name.Type
  ) throws(ArgumentError) -> [Name] where Name.RawValue == String {
    var names: [Name] = []
    for item in value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
      guard let name = Name(rawValue: item) else {
        let known = Name.allCases.map(\.rawValue).joined(separator: ", ")
        throw ArgumentError(message: "unknown name '\(item)' for '\(option)'; expected one of: \(known)")
      }
      names.append(name)
    }
    return names
  }

  private static func parseCounts(_ value: String, of option: String, maximum: Int) throws(ArgumentError) -> [Int] {
    var counts: Set<Int> = []
    for item in value.split(separator: ",", omittingEmptySubsequences: false) {
      counts.insert(try parseCount(String(item), of: option, maximum: maximum))
    }
    return counts.sorted()
  }

  private static func parseCount(_ value: String, of option: String, maximum: Int) throws(ArgumentError) -> Int {
    let digits = value.filter { $0 != "_" }
    guard let count = Int(digits), count >= 1, count <= maximum, !digits.hasPrefix("+") else {
      throw ArgumentError(message: "'\(value)' is not a whole number from 1 to \(maximum) for '\(option)'")
    }
    return count
  }

  /// The scenarios to run: the `--scenario` list, or every scenario with a selected contender.
  private static func selectScenarios(
    _ selection: [Scenario]?, contenders: [ContenderName]?
  ) throws(ArgumentError) -> [Scenario] {
    // Report order, whatever order the command line used.
    let scenarios = Scenario.allCases.filter { (selection ?? Scenario.allCases).contains($0) }
    guard let contenders else { return scenarios }
    for contender in contenders where !scenarios.contains(where: { $0.contenders.contains(contender) }) {
      let taking = contender.scenarios.map(\.name).joined(separator: ", ")
      throw ArgumentError(
        message: "contender '\(contender.name)' is not in the selected scenarios; it takes part in: \(taking)")
    }
    guard selection != nil else {
      return scenarios.filter { !Set($0.contenders).isDisjoint(with: contenders) }
    }
    for scenario in scenarios where Set(scenario.contenders).isDisjoint(with: contenders) {
      let names = scenario.contenders.map(\.name).joined(separator: ", ")
      throw ArgumentError(
        message: "scenario '\(scenario.name)' has none of the selected contenders; its contenders: \(names)")
    }
    return scenarios
  }
}
