/// What built this `Bench`, for the `toolchain` field of a report.
enum Toolchain {
  /// For example `Swift 6.3, Linux x86_64, release build`.
  static var description: String {
    "Swift \(compilerVersion), \(operatingSystem) \(architecture), \(isDebugBuild ? "debug" : "release") build"
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

  private static var operatingSystem: String {
    #if os(Linux)
      "Linux"
    #elseif os(macOS)
      "macOS"
    #elseif os(iOS)
      "iOS"
    #elseif os(tvOS)
      "tvOS"
    #elseif os(watchOS)
      "watchOS"
    #elseif os(Windows)
      "Windows"
    #else
      "unknown OS"
    #endif
  }

  private static var architecture: String {
    #if arch(x86_64)
      "x86_64"
    #elseif arch(arm64)
      "arm64"
    #elseif arch(i386)
      "i386"
    #elseif arch(arm)
      "arm"
    #else
      "unknown architecture"
    #endif
  }
}
