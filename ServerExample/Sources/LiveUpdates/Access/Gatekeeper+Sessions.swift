import HummingbirdWebSocket

extension Gatekeeper {
  /// Serves an upgraded client within its limits: a slot among its client's connections for as long as it is open
  /// (1013, "too many connections", if another upgrade took the last one meanwhile; operators are not counted), and
  /// until its token ends.
  func serve(
    _ client: WebSocketClientConnection, from feeds: TopicFeeds, claims: AccessClaims,
    context: LiveUpdatesRequestContext
  ) async throws {
    let key = claims.operator ? nil : self.client(of: claims, address: context.remoteAddress)
    if let key, !connections.acquire(key) {
      metrics.refused(.tooManyConnections)
      try? await client.outbound.close(.unknown(1013), reason: "too many connections")
      return
    }
    defer { if let key { connections.release(key) } }
    try await client.serve(from: feeds, until: claims.exp.value)
  }
}
