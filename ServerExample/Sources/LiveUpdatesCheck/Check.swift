import LiveUpdates
import Logging

/// The end-to-end check: clients over every server and topic, events POSTed to either server, and what each client
/// received, what PostgreSQL held, and what the servers counted.
struct Check {
  let options: CheckOptions
  let api = ServerAPI()
  let database: Database
  let logger: Logger
  let report = Report()

  /// When each event was POSTed: the start of the latency that ends when its last client receives it.
  final class Postings {
    var times: [TopicName: [Int: ContinuousClock.Instant]] = [:]
    /// How long each POST took to be answered.
    var roundTrips: [Duration] = []
  }

  var topics: [TopicName] {
    (0..<options.topics).map { TopicName("t\($0)")! }
  }

  /// Client `index` goes to topic `index % topics` on server `(index / topics) % servers`: every server serves
  /// every topic.
  func makeClients() -> [LoadClient] {
    (0..<options.clients).map { index in
      LoadClient(
        index: index,
        server: options.servers[(index / options.topics) % options.servers.count],
        topic: topics[index % options.topics])
    }
  }

  // MARK: - Steps

  /// Starts the clients in batches and waits until each has subscribed or been turned away.
  func connect(_ clients: [LoadClient], tasks: inout [Task<Void, Never>]) async -> Bool {
    let batch = 100
    for start in stride(from: 0, to: clients.count, by: batch) {
      let group = clients[start..<min(start + batch, clients.count)]
      for client in group {
        tasks.append(Task { [logger] in await client.run(logger: logger) })
      }
      guard await waitUntil(.seconds(60), { group.allSatisfy(\.hasSettled) }) else { return false }
    }
    return true
  }

  /// The clients the servers have not answered, counted by where each one stands.
  func unanswered(_ clients: [LoadClient]) -> String {
    let waiting = clients.filter { !$0.hasSettled }
    guard let first = waiting.first else { return "every client answered" }
    let counts = Dictionary(grouping: waiting, by: \.progress).map { "\($1.count) \($0)" }.sorted()
    return "\(waiting.count) not answered (\(counts.joined(separator: ", "))), the first client \(first.index), on "
      + "\(first.server.process)"
  }

  /// POSTs `count` events to every topic, one topic per task, one event per topic every `interval`, alternating
  /// between the servers; returns the ids sent per topic. The topics take turns: topic `k` of `n` starts `k / n` of
  /// an interval after the first, as independent topics would, instead of all at the same instant.
  func sendRound(
    from firstID: Int, count: Int, to topics: [TopicName], postings: Postings
  ) async -> [TopicName: [Int]] {
    let ids = Array(firstID..<firstID + count)
    let (api, servers, interval) = (api, options.servers, options.interval)
    let failures = await withTaskGroup(of: (TopicName, [Int: ContinuousClock.Instant], [Duration], Int).self) {
      group in
      for (index, topic) in topics.enumerated() {
        group.addTask {
          var times: [Int: ContinuousClock.Instant] = [:]
          var roundTrips: [Duration] = []
          var failures = 0
          var connections: [HTTPConnection] = []
          for server in servers {
            guard let connection = try? await HTTPConnection.connect(host: server.host, port: server.port) else {
              return (topic, times, roundTrips, ids.count)
            }
            connections.append(connection)
          }
          let start = ContinuousClock.now + interval * index / topics.count
          for (offset, id) in ids.enumerated() {
            try? await Task.sleep(until: start + interval * offset)
            let event = TopicEvent.posted(id: id, text: "event \(id) of \(topic)")
            let posted = ContinuousClock.now
            times[id] = posted
            let status = try? await api.post(event, to: topic, through: connections[id % connections.count])
            roundTrips.append(.now - posted)
            if status != 202 { failures += 1 }
          }
          for connection in connections { await connection.close() }
          return (topic, times, roundTrips, failures)
        }
      }
      var failures = 0
      for await (topic, times, roundTrips, topicFailures) in group {
        postings.times[topic, default: [:]].merge(times) { _, new in new }
        postings.roundTrips += roundTrips
        failures += topicFailures
      }
      return failures
    }
    report.check(
      failures == 0, "all \(count * topics.count) POSTs (\(count) per topic) were accepted (202)",
      otherwise: "\(failures) POSTs failed")
    return Dictionary(uniqueKeysWithValues: topics.map { ($0, ids) })
  }

  /// Waits until every client has received as many events as `expected` holds for its topic.
  func waitForDelivery(_ clients: [LoadClient], expected: [TopicName: [Int]]) async -> Bool {
    await waitUntil(.seconds(60)) {
      clients.allSatisfy { $0.eventCount >= expected[$0.topic, default: []].count }
    }
  }

  /// Whether every client received exactly the events of its topic, each once, in order, and `missed` frames where
  /// expected; returns the clients that did not, described.
  func deliveryErrors(
    _ clients: [LoadClient], expected: [TopicName: [Int]], missedFrames: (LoadClient) -> Int
  ) -> [String] {
    var errors: [String] = []
    for client in clients {
      let frames = client.frames
      let ids = frames.compactMap { eventID(of: $0.text) }
      let control = frames.filter { eventID(of: $0.text) == nil }.map(\.text)
      let subscribedFirst = frames.first.map { $0.text.hasPrefix(#"{"kind":"subscribed""#) } ?? false
      let missed = control.filter { $0 == ControlFrame.eventsMissed }.count
      let unexpected = control.filter { $0 != ControlFrame.eventsMissed && !$0.hasPrefix(#"{"kind":"subscribed""#) }
      let wanted = expected[client.topic, default: []]
      if ids != wanted || !subscribedFirst || missed != missedFrames(client) || !unexpected.isEmpty {
        errors.append(
          "client \(client.index) (\(client.server.process), \(client.topic)): \(ids.count) events, "
            + "\(ids == wanted ? "as expected" : "first difference at \(firstDifference(ids, wanted))"), "
            + "\(missed) events-missed frames (expected \(missedFrames(client))), other frames: \(unexpected)")
      }
    }
    return errors
  }

  /// For each event of `ids` POSTed in `postings`, the time from its POST to its arrival at the last client (or,
  /// with `first`, at the first).
  func latencies(
    _ clients: [LoadClient], ids: [TopicName: [Int]], postings: Postings, first: Bool = false
  ) -> [Duration] {
    var arrivals: [TopicName: [Int: ContinuousClock.Instant]] = [:]
    for client in clients {
      for frame in client.frames {
        guard let id = eventID(of: frame.text), ids[client.topic]?.contains(id) == true else { continue }
        let known = arrivals[client.topic]?[id] ?? frame.arrival
        arrivals[client.topic, default: [:]][id] = first ? min(known, frame.arrival) : max(known, frame.arrival)
      }
    }
    var result: [Duration] = []
    for (topic, arrivals) in arrivals {
      for (id, arrival) in arrivals {
        if let posted = postings.times[topic]?[id] { result.append(arrival - posted) }
      }
    }
    return result
  }

  /// The LISTEN connections `pg_stat_activity` should show in the shared design: one per topic per process.
  var sharedListenConnections: [String: Int] {
    var expected: [String: Int] = [:]
    for server in options.servers {
      for topic in topics {
        expected["live-updates \(server.process) listen \(topic.channel)"] = 1
      }
    }
    return expected
  }

  func statistics() async -> [String: StatisticsSnapshot] {
    var result: [String: StatisticsSnapshot] = [:]
    for server in options.servers {
      result[server.process] = try? await api.statistics(of: server)
    }
    return result
  }

  /// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
  func waitUntil(_ timeout: Duration, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !(await condition()) {
      if ContinuousClock.now > deadline { return false }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return true
  }
}

/// The id of an event frame (`{"id":17,…`), or `nil` for a control frame. Events are encoded with sorted keys, so
/// the id comes first.
func eventID(of text: String) -> Int? {
  let prefix = #"{"id":"#
  guard text.hasPrefix(prefix) else { return nil }
  return Int(text.dropFirst(prefix.count).prefix { $0.isNumber || $0 == "-" })
}

private func firstDifference(_ received: [Int], _ expected: [Int]) -> String {
  let index =
    zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    ?? min(received.count, expected.count)
  let got = index < received.count ? "\(received[index])" : "nothing"
  let wanted = index < expected.count ? "\(expected[index])" : "nothing"
  return "position \(index): got \(got), expected \(wanted)"
}
