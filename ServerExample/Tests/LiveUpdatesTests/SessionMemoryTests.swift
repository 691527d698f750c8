import HummingbirdWebSocket
import LiveUpdates
import NIOCore
import Synchronization
import Testing

/// What a WebSocket session holds is let go when it ends: its request context and its channel, with everything the
/// channel's pipeline held.
@Suite struct SessionMemoryTests {
  /// Weak references to each session's channel, taken while it is served.
  final class Channels: Sendable {
    private struct Weak: @unchecked Sendable {
      // Read and written under `channels`' lock only.
      weak var channel: (any Channel)?
    }

    private let channels = Mutex<[Weak]>([])

    func add(_ channel: any Channel) {
      channels.withLock { $0.append(Weak(channel: channel)) }
    }

    var count: Int { channels.withLock { $0.count } }
    var alive: Int { channels.withLock { $0.count { $0.channel != nil } } }
  }

  @Test func twoThousandSessionsOpenedAndClosedLeaveNoChannelAlive() async throws {
    let channels = Channels()
    let sessions = 2_000
    let onSession: @Sendable (WebSocketRouterContext<LiveUpdatesRequestContext>) -> Void = { context in
      channels.add(context.requestContext.channel)
    }
    try await TestServer.with(onSession: onSession) { server in
      let request = try await TestServer.upgrade("/topics/news")
      for _ in 0..<sessions / 8 {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for _ in 0..<8 {
            group.addTask {
              let connection = try await server.connect()
              try await connection.send(request)
              _ = await connection.receive(until: { String(decoding: $0, as: UTF8.self).contains("subscribed") })
              // A masked close frame, 1000.
              try await connection.send([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8])
              _ = await connection.receive()
              await connection.close()
            }
          }
          try await group.waitForAll()
        }
      }
      #expect(channels.count == sessions)
      // Channels go a moment after their connection closes, once the event loop has let go of them.
      var alive = channels.alive
      for _ in 0..<100 where alive > 0 {
        try await Task.sleep(for: .milliseconds(100))
        alive = channels.alive
      }
      #expect(alive == 0, "\(alive) of \(sessions) sessions' channels are still alive")
    }
  }
}
