import HTTPTypes
import HummingbirdWSClient
import LiveUpdates
import Logging
import Synchronization

/// One WebSocket client: subscribes to a topic on a server, records the id of every event frame with the time it
/// arrived, and, when the server closes it or goes away, connects again (to the next server) with its last id, as a
/// client that wants every event does. It leaves when asked, or when the server turns it away for good.
final class LoadClient: Sendable {
  struct Arrival: Sendable {
    let id: Int
    let time: ContinuousClock.Instant
  }

  /// How the client names the id it resumes after: `?last_id=N` in the URL, or a `Last-Event-ID: N` header.
  enum ResumeForm: Sendable {
    case query
    case header
  }

  private struct State {
    var arrivals: [Arrival] = []
    /// The last event id received: what the client resumes after.
    var lastID: Int?
    /// The `last-id` of the first `subscribed` frame: the events after it are this client's to receive.
    var startID: Int?
    var serverIndex: Int
    var connections = 0
    var resets = 0
    var isStarted = false
    /// Whether the current connection has had its `subscribed` frame: false again as soon as it ends.
    var isSubscribed = false
    var isLeaving = false
    /// Ends the current connection's wait for ``leaveTopic()``: one stream per connection, as a stream whose
    /// iteration was cancelled (the connection ended first) stays finished.
    var leaving: AsyncStream<Void>.Continuation?
    var ended = false
    var failure: String?
  }

  let index: Int
  let servers: [CheckOptions.Server]
  let topic: TopicName
  let resumeForm: ResumeForm
  private let state: Mutex<State>

  /// - Parameters:
  ///   - resumeAfter: Resume after this id on the first connection (as a client that was here before), instead of
  ///     starting from the last id now.
  ///   - resumeForm: How it sends the id it resumes after, on every connection.
  init(
    index: Int, servers: [CheckOptions.Server], first serverIndex: Int, topic: TopicName, resumeAfter: Int? = nil,
    resumeForm: ResumeForm = .query
  ) {
    self.index = index
    self.servers = servers
    self.topic = topic
    self.resumeForm = resumeForm
    var initial = State(serverIndex: serverIndex)
    initial.lastID = resumeAfter
    initial.startID = resumeAfter
    state = Mutex(initial)
  }

  /// Connects, and connects again after every close, until ``leaveTopic()``.
  func run(logger: Logger) async {
    state.withLock { $0.isStarted = true }
    while true {
      let (leave, leaving) = AsyncStream.makeStream(of: Void.self)
      let next = state.withLock { state -> (server: CheckOptions.Server, lastID: Int?)? in
        if state.isLeaving { return nil }
        state.connections += 1
        state.leaving = leaving
        return (servers[state.serverIndex % servers.count], state.lastID)
      }
      guard let (server, lastID) = next else { break }
      var query = ""
      var configuration = WebSocketClientConfiguration(additionalHeaders: CheckToken.headers)
      switch (resumeForm, lastID) {
      case (_, nil): break
      case (.query, let id?): query = "?last_id=\(id)"
      case (.header, let id?): configuration.additionalHeaders[HTTPField.Name("Last-Event-ID")!] = "\(id)"
      }
      do {
        try await WebSocketClient.connect(
          url: "ws://\(server.host):\(server.port)/topics/\(topic)\(query)", configuration: configuration,
          logger: logger
        ) { inbound, outbound, _ in
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
              for await _ in leave {}
              // Ended by leaveTopic(), not by the connection's end cancelling this task.
              if !Task.isCancelled { try await outbound.close(.normalClosure, reason: "done") }
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
      let isLeaving = state.withLock { state in
        state.isSubscribed = false
        state.leaving = nil
        return state.isLeaving
      }
      if isLeaving { break }
      // Closed by the server, or it went away: the next server, with the last id.
      state.withLock { $0.serverIndex += 1 }
      try? await Task.sleep(for: .milliseconds(200))
    }
    state.withLock { $0.ended = true }
  }

  private func record(_ text: String, at time: ContinuousClock.Instant) {
    if let id = eventID(of: text) {
      state.withLock { state in
        state.arrivals.append(Arrival(id: id, time: time))
        state.lastID = id
      }
    } else if text.hasPrefix(#"{"kind":"subscribed""#) {
      let lastID = number(after: #""last-id":"#, in: text)
      state.withLock { state in
        state.isSubscribed = true
        if state.startID == nil { state.startID = lastID }
        if state.lastID == nil { state.lastID = lastID }
      }
    } else if text.hasPrefix(#"{"kind":"reset""#) {
      let resumeAfter = number(after: #""resume-after":"#, in: text)
      state.withLock { state in
        state.resets += 1
        state.lastID = resumeAfter
      }
    }
  }

  /// Closes the connection and stops reconnecting.
  func leaveTopic() {
    let leaving = state.withLock { state in
      state.isLeaving = true
      return state.leaving
    }
    leaving?.finish()
  }

  var arrivals: [Arrival] { state.withLock { $0.arrivals } }
  var eventCount: Int { state.withLock { $0.arrivals.count } }
  var lastID: Int? { state.withLock { $0.lastID } }
  var startID: Int? { state.withLock { $0.startID } }
  var resets: Int { state.withLock { $0.resets } }
  var connections: Int { state.withLock { $0.connections } }
  var isSubscribed: Bool { state.withLock { $0.isSubscribed } }
  var hasEnded: Bool { state.withLock { $0.ended } }
  var failure: String? { state.withLock { $0.failure } }
}

/// The id of an event frame (`{"id":17,"event":…}`), or `nil` for a control frame.
func eventID(of text: String) -> Int? {
  let prefix = #"{"id":"#
  guard text.hasPrefix(prefix) else { return nil }
  return Int(text.dropFirst(prefix.count).prefix { $0.isNumber })
}

/// The integer that follows `key` in `text`, or 0.
private func number(after key: String, in text: String) -> Int {
  guard let range = text.range(of: key) else { return 0 }
  return Int(text[range.upperBound...].prefix { $0.isNumber || $0 == "-" }) ?? 0
}
