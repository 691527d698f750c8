import HummingbirdWSClient
import LiveUpdates
import Logging
import Synchronization

/// One WebSocket client: connects to a server's topic, records every text frame with the time it arrived, and
/// leaves when asked.
final class LoadClient: Sendable {
  struct Frame: Sendable {
    let text: String
    let arrival: ContinuousClock.Instant
  }

  private struct State {
    var frames: [Frame] = []
    var eventCount = 0
    var isSubscribed = false
    var ended = false
    var failure: String?
  }

  let index: Int
  let server: CheckOptions.Server
  let topic: TopicName
  private let state = Mutex(State())
  private let leave: AsyncStream<Void>
  private let leaveContinuation: AsyncStream<Void>.Continuation

  init(index: Int, server: CheckOptions.Server, topic: TopicName) {
    self.index = index
    self.server = server
    self.topic = topic
    (leave, leaveContinuation) = AsyncStream.makeStream(of: Void.self)
  }

  /// Connects and records frames until the server closes the connection or ``leaveTopic()`` is called.
  func run(logger: Logger) async {
    do {
      try await WebSocketClient.connect(
        url: "ws://\(server.host):\(server.port)/topics/\(topic)", logger: logger
      ) { inbound, outbound, _ in
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { [leave = self.leave] in
            for await _ in leave {}
            try await outbound.close(.normalClosure, reason: "done")
          }
          for try await message in inbound.messages(maxSize: 1 << 16) {
            guard case .text(let text) = message else { continue }
            self.record(text, at: .now)
          }
          group.cancelAll()
        }
      }
    } catch {
      state.withLock { $0.failure = "\(error)" }
    }
    state.withLock { $0.ended = true }
  }

  private func record(_ text: String, at arrival: ContinuousClock.Instant) {
    state.withLock { state in
      state.frames.append(Frame(text: text, arrival: arrival))
      if text.hasPrefix(#"{"id":"#) {
        state.eventCount += 1
      } else if text.hasPrefix(#"{"kind":"subscribed""#) {
        state.isSubscribed = true
      }
    }
  }

  /// Closes the connection.
  func leaveTopic() {
    leaveContinuation.finish()
  }

  var frames: [Frame] { state.withLock { $0.frames } }
  var eventCount: Int { state.withLock { $0.eventCount } }
  var isSubscribed: Bool { state.withLock { $0.isSubscribed } }
  var hasEnded: Bool { state.withLock { $0.ended } }
  /// Subscribed, or refused and gone: the server has answered.
  var hasSettled: Bool { state.withLock { $0.isSubscribed || $0.ended } }
  var failure: String? { state.withLock { $0.failure } }
}

/// A frame as the check reads it, parsed after the run so that parsing costs nothing while latencies are measured.
struct ParsedFrame: Decodable {
  var kind: String
  var id: Int?
  var reason: String?
}
