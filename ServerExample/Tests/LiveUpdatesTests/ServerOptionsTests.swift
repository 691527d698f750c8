import LiveUpdates
import Testing

@Suite struct ServerOptionsTests {
  @Test func everyOptionIsRead() throws {
    let options = try ServerOptions.parse([
      "--host", "127.0.0.1", "--port", "0", "--port-file", "/tmp/port", "--process", "a", "--design", "per-client",
      "--postgres-host", "db", "--postgres-port", "6543", "--postgres-user", "u", "--postgres-password", "p",
      "--postgres-database", "d", "--notify-connections", "3",
    ])
    #expect(options.port == 0)
    #expect(options.portFile == "/tmp/port")
    #expect(options.process == "a")
    #expect(options.design == .perClient)
    #expect(options.postgres.host == "db")
    #expect(options.postgres.port == 6543)
    #expect(options.postgres.username == "u")
    #expect(options.postgres.password == "p")
    #expect(options.postgres.database == "d")
    #expect(options.notifyConnections == 3)
  }

  @Test func aBadArgumentIsAnErrorThatNamesIt() {
    let cases: [([String], String)] = [
      (["--port"], "--port needs a value"),
      (["--port", "eighty"], "--port takes a non-negative integer, not eighty"),
      (["--design", "pooled"], "--design is shared or per-client, not pooled"),
      (["--verbose", "yes"], "unknown option --verbose"),
    ]
    for (arguments, message) in cases {
      #expect {
        try ServerOptions.parse(arguments)
      } throws: { error in
        "\(error)" == message
      }
    }
  }
}
