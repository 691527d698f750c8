extension ServerOptions {
  /// Parses one of the options of ``ServerLimits/usage``.
  mutating func parseLimitOption(_ flag: String, _ value: String) throws(ArgumentError) {
    switch flag {
    case "--max-topics": limits.topics = try Self.positive(value, for: flag)
    case "--max-connections-per-client": limits.connectionsPerClient = try Self.positive(value, for: flag)
    case "--publish-rate": limits.publishRate = Double(try Self.positive(value, for: flag))
    case "--publish-burst": limits.publishBurst = try Self.positive(value, for: flag)
    case "--slow-client-deadline-ms": limits.slowClientDeadline = .milliseconds(try Self.positive(value, for: flag))
    case "--send-buffer-bytes": limits.sendBufferBytes = try Self.positive(value, for: flag)
    case "--request-head-timeout-ms": limits.requestHeadTimeout = .milliseconds(try Self.positive(value, for: flag))
    case "--idle-timeout-ms": limits.idleTimeout = .milliseconds(try Self.positive(value, for: flag))
    case "--shutdown-grace-seconds": limits.shutdownGrace = .seconds(try Self.positive(value, for: flag))
    default: throw ArgumentError(description: "unknown option \(flag)")
    }
  }

  static func positive(_ text: String, for flag: String) throws(ArgumentError) -> Int {
    guard let value = Int(text), value > 0 else {
      throw ArgumentError(description: "\(flag) takes a positive integer, not \(text)")
    }
    return value
  }
}
