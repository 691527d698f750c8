import Foundation
import LiveUpdates
import Testing

@Suite struct ServerOptionsAccessTests {
  static let key = String(repeating: "s", count: 32)

  @Test func theKeyComesFromTheFileElseFromTheEnvironment() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID())").path
    try Data("\(String(repeating: "f", count: 40))\n".utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fromFile = try ServerOptions.parse(["--token-key-file", path])
      .resolvingAccess(environment: [AccessSettings.keyVariable: Self.key])
    #expect(fromFile.access.key == String(repeating: "f", count: 40))
    let fromEnvironment = try ServerOptions.parse([]).resolvingAccess(environment: [
      AccessSettings.keyVariable: Self.key
    ])
    #expect(fromEnvironment.access.key == Self.key)
    #expect(!fromEnvironment.access.developmentMode)
  }

  @Test func withoutAKeyTheServerDoesNotStartUnlessDevelopmentModeIsAskedFor() throws {
    #expect(throws: ServerOptions.ArgumentError.self) { try ServerOptions.parse([]).resolvingAccess(environment: [:]) }
    #expect {
      try ServerOptions.parse([]).resolvingAccess(environment: [AccessSettings.keyVariable: "short"])
    } throws: { error in
      "\(error)" == "the token key has 5 bytes; at least 32"
    }
    #expect(throws: ServerOptions.ArgumentError.self) {
      try ServerOptions.parse(["--token-key-file", "/nonexistent/key"])
    }
    let development = try ServerOptions.parse(["--development-mode-without-tokens", "--port", "0"])
      .resolvingAccess(environment: [:])
    #expect(development.access.developmentMode)
    #expect(development.port == 0)
  }

  @Test func allowedOriginsAccumulate() throws {
    let options = try ServerOptions.parse([
      "--allowed-origin", "https://a.example", "--allowed-origin", "https://b.example",
    ])
    #expect(options.access.allowedOrigins == ["https://a.example", "https://b.example"])
  }

  @Test func theUsageNamesEveryAccessOption() {
    for option in [
      "--token-key-file", "LIVE_UPDATES_TOKEN_KEY", "--allowed-origin", "--development-mode-without-tokens",
    ] {
      #expect(ServerOptions.usage.contains(option))
    }
  }
}
