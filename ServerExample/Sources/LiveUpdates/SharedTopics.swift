import Broadcasters
import Logging
import PostgresNIO
import Synchronization

/// The topics of one process in the shared design: one ``/Broadcasters/Broadcaster`` per topic, whose source is one
/// LISTEN connection, shared by every WebSocket client of the topic in this process.
///
/// A topic's LISTEN connection opens with its first client and closes after its last. The topic's entry (its
/// broadcaster and source, a few hundred bytes) stays, so that a topic that comes back reuses the same source, whose
/// sessions never overlap: one LISTEN connection per topic at most, even while the previous one is closing. At most
/// ``limit`` topics are kept.
public final class SharedTopics: Sendable {
  private struct Topic: Sendable {
    let broadcaster: Broadcaster<TopicUpdate>
    let source: ReconnectingSource<TopicUpdate>
  }

  /// The most topics a process serves.
  public static let limit = 10_000

  private let topics = Mutex<[TopicName: Topic]>([:])
  private let process: String
  private let postgres: PostgresSettings
  private let statistics: ServerStatistics
  private let logger: Logger

  public init(process: String, postgres: PostgresSettings, statistics: ServerStatistics, logger: Logger) {
    self.process = process
    self.postgres = postgres
    self.statistics = statistics
    self.logger = logger
  }

  /// The broadcaster of `name`, created on first use; `nil` when the process already serves ``limit`` topics.
  public func broadcaster(for name: TopicName) -> Broadcaster<TopicUpdate>? {
    topics.withLock { topics in
      if let topic = topics[name] { return topic.broadcaster }
      guard topics.count < Self.limit else { return nil }
      let topic = makeTopic(name)
      topics[name] = topic
      return topic.broadcaster
    }
  }

  /// How many topics have their LISTEN in place now.
  public var listeningTopicCount: Int {
    topics.withLock { topics in topics.values.count { $0.source.statistics.isConnected } }
  }

  private func makeTopic(_ name: TopicName) -> Topic {
    let source = Self.listenSource(
      for: name, process: process, postgres: postgres, statistics: statistics, logger: logger)
    let broadcaster = Broadcaster(source: source)
    broadcaster.onDecodeFailure = { [statistics, logger] failure in
      statistics.update { $0.decodeFailures += 1 }
      logger.warning("dropped a payload, delivered to nobody: \(failure)")
    }
    return Topic(broadcaster: broadcaster, source: source)
  }

  /// One LISTEN connection on the topic's channel, made again with backoff when it is lost. Each payload is decoded
  /// once, here, for every client of the topic in this process.
  static func listenSource(
    for name: TopicName,
    process: String,
    postgres: PostgresSettings,
    statistics: ServerStatistics,
    logger: Logger
  ) -> ReconnectingSource<TopicUpdate> {
    let channel = name.channel
    let configuration = postgres.configuration(applicationName: "live-updates \(process) listen \(channel)")
    let backoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(5))
    let report: @Sendable (UpstreamChange) -> Void = { change in
      switch change {
      case .connected(afterLoss: false):
        logger.info("LISTEN \(channel): connected")
      case .connected(afterLoss: true):
        statistics.update { $0.reconnects += 1 }
        logger.warning("LISTEN \(channel): connected again; NOTIFYs sent while it was lost were missed")
      case .lost(let error, let delay):
        statistics.update { $0.connectionLosses += 1 }
        let reason = error.map(describe) ?? "ended"
        logger.error("LISTEN \(channel): lost (\(reason)); NOTIFYs sent until it is back are lost; retry in \(delay)")
      case .attemptFailed(let error, let delay):
        statistics.update { $0.failedAttempts += 1 }
        logger.warning("LISTEN \(channel): attempt failed (\(error.map(describe) ?? "ended")); retrying in \(delay)")
      }
    }
    return ReconnectingSource(backoff: backoff, onChange: report) { session in
      try await withListenConnection(configuration: configuration, statistics: statistics, logger: logger) {
        connection in
        try await connection.listen(on: channel) { notifications in
          session.connected()
          if session.followsLoss {
            session.sink.send(.eventsMissed)
          }
          try await session.sink.send(contentsOf: notifications, named: channel) {
            try TopicUpdate(payload: $0.payload)
          }
        }
      }
    }
  }
}
