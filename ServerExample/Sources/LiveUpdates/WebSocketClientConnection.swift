import Broadcasters
import HummingbirdWebSocket
import Logging
import PostgresNIO

/// One WebSocket client of a topic: it subscribes to the topic's feed, then reads from the table what it lacks (after
/// the id it resumes from, or after the last id now), then writes the feed's events, each exactly once and in id
/// order, filling any gap from the table.
struct WebSocketClientConnection: Sendable {
  let topic: TopicName
  /// The last id the client saw, from `?last_id=` or `Last-Event-ID`; `nil` for a client that starts now.
  let resumeAfter: Int?
  let inbound: WebSocketInboundStream
  let outbound: WebSocketOutboundWriter
  let store: EventStore
  let statistics: ServerStatistics
  let logger: Logger
  /// What the client was told last, for the close that a shutdown sends it.
  var progress = DeliveryProgress()
  /// Set once the client is being closed for being slow (its queue filled up, or its socket did not drain): a write
  /// that fails after that is the close's doing, not PostgreSQL's.
  let slowness = SlowClientMark()

  func serve(from feeds: TopicFeeds) async throws {
    let subscriber = TopicSubscriber()
    // Subscribed before anything is read: whatever commits from now on either comes through the feed or is read
    // from the table below.
    guard let subscription = feeds.subscribe(subscriber, to: topic) else {
      try await turnAway(because: "this process serves \(feeds.limit) topics, each with clients")
      return
    }
    // Cancelled at once rather than left for the feed to notice the responder is gone: the last client's leaving
    // detaches the topic's LISTEN now, not at the next event.
    defer {
      subscription.cancel()
      withExtendedLifetime(subscriber) {}
    }
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { [inbound] in
          // Clients send nothing the server needs; reading notices when they close, or break the protocol (the
          // connection failed then): either way the writer stops.
          defer { subscriber.finish() }
          for try await _ in inbound {}
        }
        try await writeEvents(of: subscriber)
        group.cancelAll()
      }
    } catch let error as WebSocketClientConnection.Unavailable {
      // A write that failed because the socket was closed as too slow: counted as a slow client, by the caller.
      if slowness.isMarked { return }
      statistics.update { $0.clientsClosedUnavailable += 1 }
      try? await outbound.write(.text(ControlFrame.unavailable(error.reason)))
      try? await outbound.close(.unknown(1013), reason: "try again later")
    }
  }

  /// PostgreSQL could not be read: the client is closed, and resumes with its last id.
  struct Unavailable: Error {
    let reason: String
  }

  private func writeEvents(of subscriber: TopicSubscriber) async throws {
    var cursor: Int
    do {
      let last = try await store.lastID(of: topic)
      cursor = resumeAfter ?? last
      try await outbound.write(.text(ControlFrame.subscribed(to: topic, after: cursor)))
      progress.record(ControlFrame.subscribed(to: topic, after: cursor))
      if cursor > last {
        // An id this topic never gave out (another database, a reset one): start again from what there is.
        cursor = last
        try await write(ControlFrame.reset(topic, resumeAfter: last))
      }
      cursor = try await catchUp(after: cursor, through: last)
    } catch {
      throw Unavailable(reason: describe(error))
    }
    for await update in subscriber.updates {
      do {
        switch update {
        case .event(let id, let frame):
          guard id > cursor else { continue }
          if id > cursor + 1 {
            cursor = try await catchUp(after: cursor, through: id - 1)
          }
          if id == cursor + 1 {
            try await write(frame)
            cursor = id
          }
        case .checkpoint(let last):
          if last > cursor {
            cursor = try await catchUp(after: cursor, through: last)
          }
        }
      } catch {
        throw Unavailable(reason: describe(error))
      }
    }
    if subscriber.isOverflowed {
      slowness.mark()
      statistics.update { $0.slowClientsClosed += 1 }
      logger.warning("closed a client of \(topic) that read too slowly; it resumes with its last id")
      try? await outbound.close(.policyViolation, reason: "too slow")
    }
  }

  /// Writes the stored events in `(cursor, last]`, in order; a `reset` first if the oldest of them is no longer kept.
  /// Returns the new cursor: `last`.
  private func catchUp(after cursor: Int, through last: Int) async throws -> Int {
    var position = cursor
    while position < last {
      let rows = try await store.events(of: topic, after: position, through: last)
      guard let first = rows.first, let final = rows.last else {
        // Nothing kept up to `last`: those events are gone.
        try await write(ControlFrame.reset(topic, resumeAfter: last))
        statistics.update { $0.resets += 1 }
        return last
      }
      if first.id > position + 1 {
        try await write(ControlFrame.reset(topic, resumeAfter: first.id - 1))
        statistics.update { $0.resets += 1 }
      }
      for row in rows {
        try await write(TopicUpdate.frame(id: row.id, payload: row.payload))
      }
      statistics.update { $0.caughtUpEvents += rows.count }
      position = final.id
    }
    return max(position, cursor)
  }

  private func write(_ frame: String) async throws {
    let start = ContinuousClock.now
    try await outbound.write(.text(frame))
    progress.record(frame, writtenIn: start.duration(to: .now))
    statistics.update { $0.deliveries += 1 }
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
}
