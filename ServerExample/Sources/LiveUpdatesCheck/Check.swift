import Foundation
import LiveUpdates
import Logging
import PostgresNIO
import Synchronization

/// The end-to-end check: clients over every server and topic, events POSTed to either server by concurrent
/// publishers, and, per client, every event the table holds for its topic compared with what it received.
struct Check: Sendable {
  let options: CheckOptions
  let api = ServerAPI()
  let logger: Logger
  let report = Report()
  let ledger = Ledger()

  var topics: [TopicName] {
    (0..<options.topics).map { TopicName("t\($0)")! }
  }

  /// What the publishers did: every POST's answer, and when each stored event was POSTed.
  final class Ledger: Sendable {
    struct State {
      var posted: [TopicName: [Int: ContinuousClock.Instant]] = [:]
      var payloads: [TopicName: [Int: String]] = [:]
      var accepted = 0
      var refused = 0
      /// How long each refused POST took to be answered (a connection refused counts as no time).
      var refusalTimes: [Duration] = []
      var otherStatuses: [Int] = []
      /// The most LISTEN connections each process held, at any sample.
      var listenSamples: [String: Int] = [:]
      /// Whether the publishers that run until told should stop.
      var stopsPublishing = false
    }

    let state = Mutex(State())

    func record(_ topic: TopicName, payload: String, status: Int?, id: Int?, posted: ContinuousClock.Instant) {
      let elapsed = ContinuousClock.now - posted
      state.withLock { state in
        switch (status, id) {
        case (201, let id?):
          state.accepted += 1
          state.posted[topic, default: [:]][id] = posted
          state.payloads[topic, default: [:]][id] = payload
        case (503, _), (nil, _):
          state.refused += 1
          if status != nil { state.refusalTimes.append(elapsed) }
        case (let status?, _):
          state.otherStatuses.append(status)
        }
      }
    }
  }

  // MARK: - Clients

  /// Client `index` goes to topic `index % topics` on server `(index / topics) % servers`: every server serves
  /// every topic. Every other client resumes with a `Last-Event-ID` header, the others with `?last_id=`.
  func makeClients() -> [LoadClient] {
    (0..<options.clients).map { index in
      LoadClient(
        index: index, servers: options.servers, first: (index / options.topics) % options.servers.count,
        topic: topics[index % options.topics], resumeForm: index % 2 == 0 ? .query : .header)
    }
  }

  /// Starts the clients in batches of 100 and waits until each has subscribed.
  func connect(_ clients: [LoadClient], tasks: inout [Task<Void, Never>]) async -> Bool {
    let batch = 100
    for start in stride(from: 0, to: clients.count, by: batch) {
      let group = clients[start..<min(start + batch, clients.count)]
      for client in group {
        tasks.append(Task { [logger] in await client.run(logger: logger) })
      }
      guard await waitUntil(.seconds(60), { group.allSatisfy(\.isSubscribed) }) else { return false }
    }
    return true
  }

  // MARK: - Publishing

  /// POSTs `count` events, spread over `topics` and the servers, from `publishers` concurrent publishers, each with a
  /// keep-alive connection per server; returns the time it took.
  func publish(_ count: Int, to topics: [TopicName], publishers: Int, tag: String) async -> Duration {
    let started = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
      for publisher in 0..<publishers {
        group.addTask {
          var connections: [Int: HTTPConnection] = [:]
          for number in stride(from: publisher, to: count, by: publishers) {
            let topic = topics[number % topics.count]
            await post(number: number, to: topic, preferring: number, connections: &connections, tag: tag)
          }
          for connection in connections.values { await connection.close() }
        }
      }
    }
    return .now - started
  }

  /// POSTs events on every topic until the ledger says to stop, from 4 publishers, one every 20 ms each.
  func publishUntilStopped(tag: String) -> Task<Void, Never> {
    let topics = topics
    let stop: @Sendable () -> Bool = { [ledger] in ledger.state.withLock { $0.stopsPublishing } }
    return Task {
      await withTaskGroup(of: Void.self) { group in
        for publisher in 0..<4 {
          group.addTask {
            var connections: [Int: HTTPConnection] = [:]
            var number = publisher
            while !stop() {
              await post(
                number: number, to: topics[number % topics.count], preferring: number,
                connections: &connections, tag: tag)
              number += 4
              try? await Task.sleep(for: .milliseconds(20))
            }
            for connection in connections.values { await connection.close() }
          }
        }
      }
    }
  }

  /// One POST, to server `preferring % servers`, or to the next one if that one cannot be reached.
  private func post(
    number: Int, to topic: TopicName, preferring server: Int, connections: inout [Int: HTTPConnection], tag: String
  ) async {
    let event = TopicEvent.posted(id: number, text: "\(tag) \(number)")
    let posted = ContinuousClock.now
    for attempt in 0..<options.servers.count {
      let index = (server + attempt) % options.servers.count
      if connections[index] == nil {
        let target = options.servers[index]
        connections[index] = try? await HTTPConnection.connect(host: target.host, port: target.port)
      }
      guard let connection = connections[index] else { continue }
      do {
        let (status, id) = try await api.post(event, to: topic, through: connection)
        ledger.record(topic, payload: event.json, status: status, id: id, posted: posted)
        return
      } catch {
        // The connection broke: the event may or may not be stored, and nobody was told it was. Not retried.
        connections[index] = nil
        await connection.close()
        ledger.record(topic, payload: event.json, status: nil, id: nil, posted: posted)
        return
      }
    }
    ledger.record(topic, payload: event.json, status: nil, id: nil, posted: posted)
  }

  // MARK: - Accounting

  struct Accounting {
    var committed = 0
    var lost = 0
    var duplicated = 0
    var outOfOrder = 0
    var resets = 0
    var wrong: [String] = []
  }

  /// Waits until every client has received its topic's last id, then counts, per client, the events of the table it
  /// lacks, those it received twice, and those out of order.
  func account(_ clients: [LoadClient], topics: [TopicName], within timeout: Duration = .seconds(60)) async
    -> Accounting
  {
    let lastIDs = (try? await Database.with(options.postgres, logger: logger) { try await $0.lastIDs() }) ?? [:]
    _ = await waitUntil(timeout) {
      clients.allSatisfy { ($0.lastID ?? 0) >= lastIDs[$0.topic.rawValue, default: 0] }
    }
    var accounting = Accounting()
    accounting.committed = topics.reduce(0) { $0 + lastIDs[$1.rawValue, default: 0] }
    for client in clients {
      let received = client.arrivals.map(\.id)
      let start = client.startID ?? 0
      let last = lastIDs[client.topic.rawValue, default: 0]
      let expected = start < last ? Set(start + 1...last) : []
      let distinct = Set(received)
      let lost = expected.subtracting(distinct).count
      let duplicated = received.count - distinct.count
      let outOfOrder = zip(received, received.dropFirst()).count { $0 >= $1 }
      accounting.lost += lost
      accounting.duplicated += duplicated
      accounting.outOfOrder += outOfOrder
      accounting.resets += client.resets
      if lost + duplicated + outOfOrder > 0 && accounting.wrong.count < 3 {
        accounting.wrong.append(
          "client \(client.index) (\(client.topic), \(client.connections) connections): after \(start) to \(last), "
            + "\(received.count) received, \(lost) lost (\(ranges(of: expected.subtracting(distinct)))), "
            + "\(duplicated) duplicated, \(outOfOrder) out of order")
      }
    }
    return accounting
  }

  /// For each stored event POSTed by the publishers, the time from its POST to its arrival at the last client of its
  /// topic that was there for it.
  func latencies(_ clients: [LoadClient]) -> [Duration] {
    let posted = ledger.state.withLock { $0.posted }
    var lastArrival: [TopicName: [Int: ContinuousClock.Instant]] = [:]
    for client in clients {
      for arrival in client.arrivals where posted[client.topic]?[arrival.id] != nil {
        let known = lastArrival[client.topic]?[arrival.id] ?? arrival.time
        lastArrival[client.topic, default: [:]][arrival.id] = max(known, arrival.time)
      }
    }
    var result: [Duration] = []
    for (topic, arrivals) in lastArrival {
      for (id, arrival) in arrivals {
        if let time = posted[topic]?[id] { result.append(arrival - time) }
      }
    }
    return result
  }

  /// Samples the LISTEN connections of every process, keeping the most seen.
  func sampleListenConnections() async -> [String: Int] {
    let held = (try? await Database.with(options.postgres, logger: logger) { try await $0.listenConnections() }) ?? [:]
    ledger.state.withLock { state in
      for (name, count) in held { state.listenSamples[name] = max(state.listenSamples[name] ?? 0, count) }
    }
    return held
  }

  func statistics() async -> [String: StatisticsSnapshot] {
    var result: [String: StatisticsSnapshot] = [:]
    for server in options.servers {
      result[server.process] = try? await api.statistics(of: server)
    }
    return result
  }

  /// Runs a shell command given by the script; returns whether it succeeded. It waits on a thread of its own, not on
  /// one of the few threads the clients' tasks run on. The command inherits none of the check's descriptors (on
  /// Linux, ``spawnShell(_:)``): with a thousand client sockets open here, a PostgreSQL started by `pg_ctl` would
  /// otherwise count them against its `max_files_per_process` and refuse to start. Not Foundation's `Process`: on
  /// Linux it waits until every process that inherited its descriptors has exited, and a PostgreSQL never does.
  func run(_ command: String) async -> Bool {
    await withCheckedContinuation { continuation in
      Thread {
        #if canImport(Glibc)
          continuation.resume(returning: spawnShell(command))
        #else
          let process = Process()
          process.executableURL = URL(fileURLWithPath: "/bin/sh")
          process.arguments = ["-c", command]
          do {
            try process.run()
            process.waitUntilExit()
            continuation.resume(returning: process.terminationStatus == 0)
          } catch {
            continuation.resume(returning: false)
          }
        #endif
      }.start()
    }
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

/// `ids` as ranges, `3…7, 9`, the first few only.
func ranges(of ids: Set<Int>) -> String {
  var ranges: [ClosedRange<Int>] = []
  for id in ids.sorted() {
    if let last = ranges.last, last.upperBound + 1 == id {
      ranges[ranges.count - 1] = last.lowerBound...id
    } else {
      ranges.append(id...id)
    }
  }
  let shown = ranges.prefix(4).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)…\($0.upperBound)" }
  return (shown + (ranges.count > 4 ? ["…"] : [])).joined(separator: ", ")
}
