import Broadcasters
import HummingbirdWebSocket
import Logging
import PostgresNIO

/// One WebSocket client of a topic, served in either design.
struct WebSocketClientConnection: Sendable {
  let topic: TopicName
  let inbound: WebSocketInboundStream
  let outbound: WebSocketOutboundWriter
  let statistics: ServerStatistics
  let logger: Logger

  /// The shared design: the client subscribes, as a responder held weakly, to its topic's broadcaster, whose one
  /// LISTEN connection serves every client of the topic in this process.
  func serveShared(from topics: SharedTopics) async throws {
    guard let broadcaster = topics.broadcaster(for: topic) else {
      try await turnAway(because: "this process serves \(SharedTopics.limit) topics")
      return
    }
    let subscriber = TopicSubscriber()
    // Queued before subscribing, written after: the client's first frame says its subscription is in place.
    subscriber.queue(ControlFrame.subscribed(to: topic))
    let subscription = broadcaster.subscribe(subscriber)
    // Cancelled at once rather than left for the broadcaster to notice the responder is gone: the last client's
    // leaving closes the topic's LISTEN connection now, not at the next event.
    defer {
      subscription.cancel()
      withExtendedLifetime(subscriber) {}
    }
    try await writeFrames(of: subscriber)
  }

  /// The per-client design: the client opens its own LISTEN connection and decodes every payload itself. It holds
  /// one PostgreSQL connection per client and fails when PostgreSQL has no more to give.
  func servePerClient(configuration: PostgresConnection.Configuration) async throws {
    let subscriber = TopicSubscriber()
    var listening = false
    do {
      try await withListenConnection(configuration: configuration, statistics: statistics, logger: logger) {
        connection in
        try await connection.listen(on: topic.channel) { notifications in
          listening = true
          subscriber.queue(ControlFrame.subscribed(to: topic))
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [topic, statistics, logger] in
              for try await notification in notifications {
                do throws(DecodeFailure) {
                  subscriber.handle(event: try TopicUpdate(payload: notification.payload))
                } catch {
                  statistics.update { $0.decodeFailures += 1 }
                  logger.warning("dropped a payload on \(topic.channel): \(error)")
                }
              }
            }
            try await writeFrames(of: subscriber)
            group.cancelAll()
          }
        }
      }
    } catch let error as PSQLError {
      // PostgreSQL refused the connection (no slots left, typically) or ended it: the client cannot be served.
      if !listening {
        statistics.update { $0.refusedClients += 1 }
      }
      logger.debug("turned a client away: \(describe(error))")
      try await turnAway(because: describe(error))
    }
  }

  /// How long a client that was turned away has to close before the server closes the connection itself.
  static let turnAwayTimeout = Duration.seconds(10)

  /// Tells the client why it cannot be served and waits for it to close; closes with 1013, "try again later", if it
  /// has not within ``turnAwayTimeout``.
  private func turnAway(because reason: String) async throws {
    try await outbound.write(.text(ControlFrame.unavailable(reason)))
    // The client closes first. A close from here, right behind the upgrade response, ends the TCP stream as well (the
    // server half-closes after its close frame), and a client whose upgrade is still completing can lose both:
    // SwiftNIO's HTTP client upgrade drops bytes that arrive with the end of the stream before the WebSocket handlers
    // are in place, and the client then waits for frames that never come.
    let clientClosed = await withTaskGroup(of: Bool.self) { group in
      group.addTask { [inbound] in
        do {
          for try await _ in inbound {}
        } catch {}
        return true
      }
      group.addTask {
        try? await Task.sleep(for: Self.turnAwayTimeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    if !clientClosed {
      try await outbound.close(.unknown(1013), reason: "try again later")
    }
  }

  /// Writes the subscriber's frames in order until the client leaves or reads too slowly.
  private func writeFrames(of subscriber: TopicSubscriber) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { [inbound] in
        // Clients send nothing the server needs; reading notices when they close.
        for try await _ in inbound {}
        subscriber.finish()
      }
      for await frame in subscriber.frames {
        try await outbound.write(.text(frame))
        statistics.update { $0.deliveries += 1 }
      }
      if subscriber.isOverflowed {
        statistics.update { $0.slowClientsClosed += 1 }
        logger.warning("closed a client of \(topic) that read too slowly")
        try? await outbound.close(.policyViolation, reason: "too slow")
      }
      group.cancelAll()
    }
  }
}
