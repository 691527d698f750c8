import Foundation
import LiveUpdates
import Testing

/// Connections that hold the server without finishing a request, through real sockets.
@Suite struct HTTPConnectionGuardTests {
  static var shortDeadlines: ServerLimits {
    var limits = ServerLimits()
    limits.requestHeadTimeout = .seconds(1)
    limits.idleTimeout = .seconds(1)
    return limits
  }

  @Test func aConnectionThatNeverFinishesItsRequestHeadIsClosedOnTheDeadlineAndCounted() async throws {
    try await TestServer.with(limits: Self.shortDeadlines) { server in
      let start = ContinuousClock.now
      let connections = try await (0..<20).asyncMap { _ in
        let connection = try await server.connect()
        try await connection.send("GET /stats HTTP/1.1\r\nHost: x\r\n")
        return connection
      }
      for connection in connections {
        let received = await connection.receive(timeout: .seconds(10))
        #expect(received.isClosed)
        #expect(received.bytes.isEmpty)
      }
      #expect(start.duration(to: .now) < .seconds(6))
      #expect(server.metric("live_updates_connections_closed_total", #"reason="request_head_timeout""#) == 20)
      #expect(server.metric("live_updates_connections_closed_total", #"reason="idle_timeout""#) == 0)
    }
  }

  @Test func aConnectionIdleBetweenRequestsIsClosedOnTheDeadlineAndCounted() async throws {
    var limits = ServerLimits()
    limits.requestHeadTimeout = .seconds(30)
    limits.idleTimeout = .milliseconds(300)
    try await TestServer.with(limits: limits) { server in
      let connection = try await server.connect()
      try await connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
      // Refused without a token, and kept alive, as any answered request.
      let answered = await connection.receiveHead()
      #expect(answered.text.hasPrefix("HTTP/1.1 401"))
      let start = ContinuousClock.now
      let received = await connection.receive(timeout: .seconds(10))
      #expect(received.isClosed)
      #expect(start.duration(to: .now) < .seconds(5))
      #expect(server.metric("live_updates_connections_closed_total", #"reason="idle_timeout""#) == 1)
    }
  }

  @Test func aRequestThatBeginsAfterAnIdlePauseOwesItsHeadWithinTheHeadDeadline() async throws {
    var limits = ServerLimits()
    limits.requestHeadTimeout = .milliseconds(300)
    limits.idleTimeout = .seconds(30)
    try await TestServer.with(limits: limits) { server in
      let connection = try await server.connect()
      try await connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(await connection.receiveHead().text.hasPrefix("HTTP/1.1 401"))
      // Idle for longer than the head's deadline: allowed between requests.
      try await Task.sleep(for: .milliseconds(600))
      try await connection.send("GET /metrics HTTP/1.1\r\n")
      let start = ContinuousClock.now
      let received = await connection.receive(timeout: .seconds(10))
      #expect(received.isClosed)
      #expect(start.duration(to: .now) < .seconds(5))
      #expect(server.metric("live_updates_connections_closed_total", #"reason="request_head_timeout""#) == 1)
    }
  }

  @Test func aBadRequestLineIsAnswered400WithAReasonThenClosed() async throws {
    try await TestServer.with { server in
      let connection = try await server.connect()
      try await connection.send("NOT A REQUEST LINE\r\n\r\n")
      let received = await connection.receive(timeout: .seconds(10))
      let text = String(decoding: received.bytes, as: UTF8.self)
      #expect(text.hasPrefix("HTTP/1.1 400"))
      #expect(text.contains(#""error":"bad_request""#))
      #expect(received.isClosed)
      #expect(server.metric("live_updates_refusals_total", #"reason="bad_request""#) == 1)
    }
  }

  @Test func aBodyPastTheLimitIsAnswered413AndTheRestIsNotRead() async throws {
    try await TestServer.with { server in
      let connection = try await server.connect()
      let size = 10 * 1024 * 1024
      try await connection.send(
        "POST /topics/news HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\n\r\n")
      async let sent = connection.sendFiller(size)
      let answered = await connection.receiveHead(timeout: .seconds(20))
      #expect(answered.text.hasPrefix("HTTP/1.1 413"))
      #expect(answered.text.lowercased().contains("connection: close"))
      // The server closed the connection instead of reading 10 MB: the kernel's buffers took what was written.
      let written = await sent
      #expect(written < size * 3 / 4)
      #expect(await connection.receive(timeout: .seconds(10)).isClosed)
    }
  }
}

extension Sequence where Element: Sendable {
  func asyncMap<Mapped>(_ transform: (Element) async throws -> Mapped) async rethrows -> [Mapped] {
    var result: [Mapped] = []
    for element in self { result.append(try await transform(element)) }
    return result
  }
}
