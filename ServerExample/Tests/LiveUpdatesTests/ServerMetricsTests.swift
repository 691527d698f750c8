import LiveUpdates
import Testing

@Suite struct ServerMetricsTests {
  @Test func everyRefusalReasonIsASeriesFromTheStartAndCountsWhatHappened() {
    let metrics = ServerMetrics()
    for kind in Refusal.Kind.allCases {
      #expect(metrics.exposition.contains(#"live_updates_refusals_total{reason="\#(kind.rawValue)"} 0"#))
    }
    metrics.refused(.unauthorized)
    metrics.refused(.unauthorized)
    metrics.refused(.rateLimited)
    metrics.evicted(5)
    metrics.slowClientClosed()
    let text = metrics.exposition
    #expect(text.contains(#"live_updates_refusals_total{reason="unauthorized"} 2"#))
    #expect(text.contains(#"live_updates_refusals_total{reason="rate_limited"} 1"#))
    #expect(text.contains("live_updates_topics_evicted_total 5"))
    #expect(text.contains("live_updates_slow_clients_closed_total 1"))
  }

  @Test func gaugesShowTheLevelsOfTheLastScrapeAndWritesFillTheHistogram() {
    let metrics = ServerMetrics()
    var levels = ServerMetrics.Levels()
    levels.clients = 300
    levels.topics = 3
    levels.listenConnections = 1
    levels.listeningTopics = 3
    metrics.update(levels)
    metrics.delivered(in: .milliseconds(3))
    metrics.delivered(in: .milliseconds(700))
    let text = metrics.exposition
    #expect(text.contains("live_updates_clients 300"))
    #expect(text.contains("live_updates_topics 3"))
    #expect(text.contains("live_updates_listen_connections 1"))
    #expect(text.contains("live_updates_listening_topics 3"))
    #expect(text.contains("live_updates_delivery_write_seconds_count 2"))
    #expect(text.contains(#"live_updates_delivery_write_seconds_bucket{le="0.005"} 1"#))
  }
}
