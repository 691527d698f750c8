import LiveUpdates
import Testing

@Suite struct ServerOptionsTests {
  @Test func everyOptionIsRead() throws {
    let options = try ServerOptions.parse([
      "--host", "127.0.0.1", "--port", "0", "--port-file", "/tmp/port", "--process", "a",
      "--postgres-host", "db", "--postgres-port", "6543", "--postgres-user", "u", "--postgres-password", "p",
      "--postgres-database", "d", "--pool-connections", "3",
      "--post-deadline-ms", "1500", "--retention-count", "50", "--retention-seconds", "60",
    ])
    #expect(options.port == 0)
    #expect(options.portFile == "/tmp/port")
    #expect(options.process == "a")
    #expect(options.postgres.host == "db")
    #expect(options.postgres.port == 6543)
    #expect(options.postgres.username == "u")
    #expect(options.postgres.password == "p")
    #expect(options.postgres.database == "d")
    #expect(options.poolConnections == 3)
    #expect(options.postDeadline == .milliseconds(1500))
    #expect(options.retention == EventStore.Retention(age: .seconds(60), count: 50))
  }

  @Test func aBadArgumentIsAnErrorThatNamesIt() {
    let cases: [([String], String)] = [
      (["--port"], "--port needs a value"),
      (["--port", "eighty"], "--port takes a non-negative integer, not eighty"),
      (["--retention-count", "-1"], "--retention-count takes a non-negative integer, not -1"),
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
