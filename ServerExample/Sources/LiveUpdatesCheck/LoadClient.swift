import HummingbirdWSClient
import LiveUpdates
import Logging
import Synchronization

/// One WebSocket client: connects to a server's topic, records every text frame with the time it arrived, and
/// leaves when asked, or at once when the server turns it away.
final class LoadClient: Sendable {
  struct Frame: Sendable {
    let text: String
    let arrival: ContinuousClock.Instant
  }

  private struct State {
    var frames: [Frame] = []
    var eventCount = 0
    var isStarted = false
    var isUpgraded = false
    var isSubscribed = false
    var isTurnedAway = false
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

  /// Connects and records frames until the server closes the connection, ``leaveTopic()`` is called, or the server
  /// turns the client away: then the client closes, as the server expects it to.
  func run(logger: Logger) async {
    state.withLock { $0.isStarted = true }
    do {
      try await WebSocketClient.connect(
        url: "ws://\(server.host):\(server.port)/topics/\(topic)", logger: logger
      ) { inbound, outbound, _ in
        self.state.withLock { $0.isUpgraded = true }
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
    let turnedAway = text.hasPrefix(#"{"kind":"unavailable""#)
    state.withLock { state in
      state.frames.append(Frame(text: text, arrival: arrival))
      if text.hasPrefix(#"{"id":"#) {
        state.eventCount += 1
      } else if text.hasPrefix(#"{"kind":"subscribed""#) {
        state.isSubscribed = true
      } else if turnedAway {
        state.isTurnedAway = true
      }
    }
    // A server that turns a client away waits for it to close once it has read why.
    if turnedAway { leaveTopic() }
  }

  /// Closes the connection.
  func leaveTopic() {
    leaveContinuation.finish()
  }

  var frames: [Frame] { state.withLock { $0.frames } }
  var eventCount: Int { state.withLock { $0.eventCount } }
  var isSubscribed: Bool { state.withLock { $0.isSubscribed } }
  var hasEnded: Bool { state.withLock { $0.ended } }
  /// Subscribed, turned away, or gone: the server has answered.
  var hasSettled: Bool { state.withLock { $0.isSubscribed || $0.isTurnedAway || $0.ended } }
  var failure: String? { state.withLock { $0.failure } }
  /// Where the client is, for a client the server did not answer: not started, connecting, upgraded, or ended.
  var progress: String {
    state.withLock { state in
      if state.ended { return "ended" + (state.failure.map { " (\($0))" } ?? "") }
      if state.isTurnedAway { return "turned away" }
      if state.isSubscribed { return "subscribed" }
      if state.isUpgraded { return "upgraded, no frame yet" }
      return state.isStarted ? "connecting" : "not started"
    }
  }
}

/// A frame as the check reads it, parsed after the run so that parsing costs nothing while latencies are measured.
struct ParsedFrame: Decodable {
  var kind: String
  var id: Int?
  var reason: String?
}
