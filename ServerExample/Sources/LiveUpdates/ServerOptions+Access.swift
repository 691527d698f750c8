import Foundation

extension ServerOptions {
  /// The options about who may connect, listed by `--help` after the others.
  public static let accessUsage = """
      --token-key-file PATH   the HS256 key tokens are signed with (at least 32 bytes); without it the key is read
                              from the LIVE_UPDATES_TOKEN_KEY environment variable; one of them is required
      --allowed-origin ORIGIN a browser origin (https://app.example.com) that may open WebSockets and POST; repeat
                              for more; requests without Origin (not from a browser) are always let through
      --development-mode-without-tokens
                              check no tokens at all: anyone may subscribe, publish and read the counters; for a
                              developer's own machine only, and said loudly at start-up
    """

  /// The shortest key accepted: HS256's own strength, 256 bits.
  public static let minimumKeyLength = 32

  /// Parses one of the options of ``accessUsage`` that take a value.
  mutating func parseAccessOption(_ flag: String, _ value: String) throws(ArgumentError) {
    switch flag {
    case "--token-key-file":
      guard let data = FileManager.default.contents(atPath: value) else {
        throw ArgumentError(description: "cannot read the token key file \(value)")
      }
      access.key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    case "--allowed-origin": access.allowedOrigins.append(value)
    default: try parseLimitOption(flag, value)
    }
  }

  /// The options with the token key taken from `environment` when no file named it, checked: a key of at least
  /// ``minimumKeyLength`` bytes, or development mode.
  public func resolvingAccess(environment: [String: String]) throws(ArgumentError) -> ServerOptions {
    var options = self
    if options.access.key == nil { options.access.key = environment[AccessSettings.keyVariable] }
    if options.access.developmentMode { return options }
    guard let key = options.access.key, !key.isEmpty else {
      throw ArgumentError(
        description: "no token key: pass --token-key-file PATH or set \(AccessSettings.keyVariable) "
          + "(or, on your own machine only, --development-mode-without-tokens)")
    }
    guard key.utf8.count >= Self.minimumKeyLength else {
      throw ArgumentError(description: "the token key has \(key.utf8.count) bytes; at least \(Self.minimumKeyLength)")
    }
    return options
  }
}
