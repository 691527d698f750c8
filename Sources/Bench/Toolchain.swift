import BenchHarness

/// What built this `Bench`, for the `toolchain` field of a report.
enum Toolchain {
  /// For example `Swift 6.3, Linux x86_64, release build`.
  static var description: String {
    let build = isDebugBuild ? "debug" : "release"
    return "Swift \(compilerVersion), \(Machine.operatingSystem) \(Machine.architecture), \(build) build"
  }

  /// Whether this is a debug build, whose figures say little about release code.
  static var isDebugBuild: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  // Swift has no run-time or compile-time string for its own version; `#if compiler` is the most precise test.
  private static var compilerVersion: String {
    #if compiler(>=7.0)
      "7.0 or later"
    #elseif compiler(>=6.5)
      "6.5"
    #elseif compiler(>=6.4)
      "6.4"
    #elseif compiler(>=6.3)
      "6.3"
    #elseif compiler(>=6.2)
      "6.2"
    #elseif compiler(>=6.1)
      "6.1"
    #else
      "6.0"
    #endif
  }
}
