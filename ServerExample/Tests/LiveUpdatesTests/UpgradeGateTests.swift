import Foundation
import LiveUpdates
import Testing

/// Upgrades decided once, through real sockets: the limit per client under a race, the resume id, the framing rules.
@Suite struct UpgradeGateTests {
  /// A response head, and the frames or body that followed it.
  static func response(of connection: RawConnection) async -> String {
    let (bytes, _) = await connection.receive(until: { bytes in
      let text = String(decoding: bytes, as: UTF8.self)
      guard let end = text.range(of: "\r\n\r\n") else { return false }
      // A 101 with its `subscribed` frame; any other status with its JSON body.
      return text.hasPrefix("HTTP/1.1 101") ? text[end.upperBound...].contains("}") : text.hasSuffix("}")
    })
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func racingUpgradesAtTheLimitAreEachUpgradedOnceOrRefusedWith429AndRetryAfter() async throws {
    var limits = ServerLimits()
    limits.connectionsPerClient = 3
    try await TestServer.with(limits: limits) { server in
      // One slot taken, two free, twenty racing for them.
      let holder = try await server.connect()
      try await holder.send(try await TestServer.upgrade("/topics/news"))
      #expect(await Self.response(of: holder).hasPrefix("HTTP/1.1 101"))
      let connections = try await (0..<20).asyncMap { _ in try await server.connect() }
      let request = try await TestServer.upgrade("/topics/news")
      let responses = await withTaskGroup(of: String.self) { group in
        for connection in connections {
          group.addTask {
            try? await connection.send(request)
            return await Self.response(of: connection)
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      let upgraded = responses.filter { $0.hasPrefix("HTTP/1.1 101") }
      let refused = responses.filter { $0.hasPrefix("HTTP/1.1 429") }
      #expect(upgraded.count == 2)
      #expect(upgraded.allSatisfy { $0.contains(#""kind":"subscribed""#) })
      #expect(refused.count == 18)
      #expect(refused.allSatisfy { $0.lowercased().contains("retry-after: 1") && $0.contains("too_many_connections") })
      // Every slot is given back when its connection closes.
      for connection in connections + [holder] { await connection.close() }
      var released = false
      for _ in 0..<100 where !released {
        released = server.gatekeeper.connections.clientCount == 0
        if !released { try await Task.sleep(for: .milliseconds(50)) }
      }
      #expect(released)
    }
  }

  @Test(arguments: [
    ("/topics/news?last_id=abc", [String](), "last_id"),
    ("/topics/news?last_id=99999999999999999999", [], "last_id"),
    ("/topics/news?last_id=-3", [], "last_id"),
    ("/topics/news", ["Last-Event-ID: garbage"], "Last-Event-ID"),
  ])
  func aMalformedResumeIdIsRefusedWith400AndAReason(path: String, headers: [String], source: String) async throws {
    try await TestServer.with { server in
      let connection = try await server.connect()
      try await connection.send(try await TestServer.upgrade(path, headers: headers))
      let response = await Self.response(of: connection)
      #expect(response.hasPrefix("HTTP/1.1 400"))
      #expect(response.contains(#""error":"bad_request""#))
      #expect(response.contains("\(source) must be a non-negative integer"))
    }
  }

  @Test func aWellFormedResumeIdIsUpgradedAndResumesAfterIt() async throws {
    try await TestServer.with { server in
      let connection = try await server.connect()
      try await connection.send(try await TestServer.upgrade("/topics/news", headers: ["Last-Event-ID: 41"]))
      let response = await Self.response(of: connection)
      #expect(response.hasPrefix("HTTP/1.1 101"))
      #expect(response.contains(#""after":41"#))
    }
  }

  @Test(arguments: [
    // An unmasked text frame, "hello".
    [0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f] as [UInt8],
    // A masked continuation frame with no message to continue (mask 0, payload "hi").
    [0x80, 0x82, 0x00, 0x00, 0x00, 0x00, 0x68, 0x69],
  ])
  func aFrameThatBreaksTheFramingRulesFailsTheConnectionWith1002(frame: [UInt8]) async throws {
    try await TestServer.with { server in
      let connection = try await server.connect()
      try await connection.send(try await TestServer.upgrade("/topics/news"))
      #expect(await Self.response(of: connection).hasPrefix("HTTP/1.1 101"))
      try await connection.send(frame)
      let received = await connection.receive(timeout: .seconds(10))
      // A close frame (0x88) with the status 1002 (0x03 0xEA) and a reason, then the end of the connection.
      #expect(received.bytes.count >= 4)
      #expect(Array(received.bytes.prefix(1)) == [0x88])
      #expect(Array(received.bytes.dropFirst(2).prefix(2)) == [0x03, 0xEA])
      #expect(received.bytes.count > 4)
      #expect(received.isClosed)
    }
  }
}
