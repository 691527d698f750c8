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
    do {
      try await withListenConnection(configuration: configuration, statistics: statistics, logger: logger) {
        connection in
        try await connection.listen(on: topic.channel) { notifications in
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
    } catch let error as PSQLError where error.code == .server || error.code == .connectionError {
      statistics.update { $0.refusedClients += 1 }
      logger.debug("refused a client: \(describe(error))")
      try await turnAway(because: describe(error))
    }
  }

  /// Tells the client why it cannot be served, then closes with 1013, "try again later".
  private func turnAway(because reason: String) async throws {
    // A frame and a close sent right behind the upgrade response were sometimes never seen by the check's WebSocket
    // client (swift-websocket's), which then waited forever; a short pause avoids that.
    try await Task.sleep(for: .milliseconds(50))
    try await outbound.write(.text(ControlFrame.unavailable(reason)))
    try await outbound.close(.unknown(1013), reason: "try again later")
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
