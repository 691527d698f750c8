import HummingbirdWebSocket
import NIOCore

extension Gatekeeper {
  /// Serves an upgraded client within its limits: the slot among its client's connections that the gate took for it
  /// is held until the connection closes (``decideUpgrade(_:from:)``), and it is served until its token ends or its socket stops draining (``SlowClientWatchdog``), whose send buffer is capped. When the
  /// process shuts down gracefully (SIGTERM), the client is closed with 1001, "going away", and the last id it was
  /// told about (`last-id=N`), so that it resumes on another process.
  func serve(
    _ client: WebSocketClientConnection, from feeds: TopicFeeds, claims: AccessClaims,
    context: LiveUpdatesRequestContext
  ) async throws {
    let channel = context.channel
    try? await channel.setOption(
      ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(limits.sendBufferBytes)
    )
    .get()
    let watchdog = SlowClientWatchdog(
      socket: .init(channel: channel, outbound: client.outbound), deadline: limits.slowClientDeadline,
      mark: client.slowness)
    let registration = clients.register {
      let reason = client.progress.lastID.map { "going away; last-id=\($0)" } ?? "going away"
      try? await client.outbound.close(.goingAway, reason: reason)
    }
    defer { clients.unregister(registration) }
    try await serveWatched(client, from: feeds, claims: claims, watchdog: watchdog)
  }

  private func serveWatched(
    _ client: WebSocketClientConnection, from feeds: TopicFeeds, claims: AccessClaims, watchdog: SlowClientWatchdog
  ) async throws {
    try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        try await client.serve(from: feeds, until: claims.exp.value)
        return false
      }
      group.addTask { (try? await watchdog.watch()) ?? false }
      // The first to end: the client's serving (it left, or was closed), or the watchdog, which closed it. A client
      // closed as slow is counted as slow whichever ends first: its queue filled up, or the watchdog's close made a
      // write fail, which ends the serving before the watchdog returns.
      let closedByWatchdog = try await group.next() == true
      if closedByWatchdog || client.slowness.isMarked {
        metrics.slowClientClosed()
        client.logger.warning("closed a client whose socket did not drain", metadata: ["topic": "\(client.topic)"])
      }
      group.cancelAll()
    }
  }
}
