import Foundation
import LiveUpdates
import Logging
import PostgresNIO

extension Check {
  /// The whole check: the steady round, resume, reset, catch-up, the write figures, then the faults if asked for.
  func run() async -> Report {
    let clients = makeClients()
    var tasks: [Task<Void, Never>] = []
    say(
      "# \(clients.count) clients on \(options.topics) topics over \(options.servers.count) processes, "
        + "one LISTEN connection per process")

    // Connect: every client subscribed, every process holds one LISTEN connection for all its topics.
    let settled = await connect(clients, tasks: &tasks)
    let subscribed = clients.filter(\.isSubscribed).count
    report.check(
      settled && subscribed == clients.count, "all \(clients.count) WebSocket clients subscribed",
      otherwise: "\(subscribed) subscribed; first failure: \(clients.compactMap(\.failure).first ?? "none")")
    let topicsPerProcess = min(options.topics, max(1, options.clients / options.servers.count))
    let listening = await waitUntil(.seconds(20)) {
      await statistics().values.allSatisfy { $0.listeningTopics >= topicsPerProcess }
    }
    report.check(listening, "every process has the LISTEN of each of its topics in place")
    let held = await sampleListenConnections()
    let expectedHeld = Dictionary(
      uniqueKeysWithValues: options.servers.map { ("live-updates \($0.process) listen", 1) })
    report.check(
      held == expectedHeld,
      "pg_stat_activity: exactly one LISTEN connection per process for \(options.topics) topics and "
        + "\(clients.count) clients", otherwise: "found \(held)")

    // The steady round, from concurrent publishers; a LISTEN connection terminated in the middle of it.
    let total = options.events * options.topics
    let terminator = Task {
      try? await Task.sleep(for: .milliseconds(300))
      return
        (try? await Database.with(options.postgres, logger: logger) {
          try await $0.terminate(applicationName: "live-updates \(options.servers[0].process) listen")
        }) ?? 0
    }
    let elapsed = await publish(total, to: topics, publishers: options.publishers, tag: "steady")
    report.check(
      await terminator.value == 1,
      "pg_terminate_backend ended \(options.servers[0].process)'s LISTEN connection while events were POSTed")
    let answered = ledger.state.withLock { $0 }
    // A POST that PostgreSQL does not store within the deadline is answered 503, on a loaded machine too: what must
    // hold is that every answer is one of the two, and that a 201 means stored (checked below).
    report.check(
      answered.accepted + answered.refused == total && answered.accepted > 0 && answered.otherStatuses.isEmpty,
      "all \(total) POSTs from \(options.publishers) concurrent publishers were answered 201 with their id "
        + "(\(answered.accepted)) or 503 (\(answered.refused), not stored within the deadline), none otherwise",
      otherwise: "\(answered.accepted) 201, \(answered.refused) refused, others: \(answered.otherStatuses.prefix(5))")
    let postsPerSecond = Double(answered.accepted) / elapsed.seconds
    let reconnected = await waitUntil(.seconds(15)) {
      (await statistics()[options.servers[0].process]?.reconnects ?? 0) >= 1
    }
    report.check(reconnected, "\(options.servers[0].process) reconnected its LISTEN connection and counted the loss")
    var accounting = await checkNothingLost(
      clients,
      "every client received every committed event of its topic exactly once, in order, across the lost LISTEN",
      resetsAllowed: false)
    await checkAcknowledgedEventsAreStored()
    await checkMalformedNotifications()

    // Resume with the last id, on the other process.
    await checkResume()
    // History older than retention: a reset frame, then what is kept.
    await checkReset()
    // One client catching up a long history, timed.
    let catchUpTime = await timeCatchUp()
    // Writes: the same appends with NOTIFY in the transaction, and without.
    let (withNotify, withoutNotify) = await measureAppends()

    // The faults, while events flow.
    if let faults = options.faults {
      await runFaults(faults, clients: clients)
      accounting = await checkNothingLost(
        clients, "after every fault, every client received every committed event of its topic exactly once, in order",
        within: .seconds(120))
      await checkAcknowledgedEventsAreStored()
    }

    // Everyone leaves: every live process closes its LISTEN connection.
    let leftAt = ContinuousClock.now
    for client in clients { client.leaveTopic() }
    let closed = await waitUntil(options.closeBound + .seconds(10)) {
      await sampleListenConnections().isEmpty
    }
    let closeTime = ContinuousClock.now - leftAt
    report.check(
      closed && closeTime <= options.closeBound,
      "no LISTEN connection left \(closeTime.milliseconds) after the last client left (bound "
        + "\(options.closeBound.milliseconds))")
    _ = await waitUntil(.seconds(10)) { clients.allSatisfy(\.hasEnded) }
    for task in tasks { task.cancel() }

    let latencies = latencies(clients)
    say("# figures")
    let maxListen = ledger.state.withLock { $0.listenSamples.values.max() ?? 0 }
    report.figure("listen-connections-max-per-process", "\(maxListen)")
    report.figure("clients-served", "\(subscribed)")
    report.figure("clients-refused", "\(clients.count - subscribed)")
    report.figure("events-committed", "\(accounting.committed)")
    report.figure("events-lost", "\(accounting.lost)")
    report.figure("events-duplicated", "\(accounting.duplicated)")
    report.figure("p50-ms", quantile(latencies, 0.5).millisecondsValue)
    report.figure("p99-ms", quantile(latencies, 0.99).millisecondsValue)
    report.figure("posts-per-second", String(format: "%.0f", postsPerSecond))
    report.figure("appends-per-second-notify", String(format: "%.0f", withNotify))
    report.figure("appends-per-second-no-notify", String(format: "%.0f", withoutNotify))
    report.figure("catch-up-\(options.catchUp)-ms", catchUpTime.millisecondsValue)
    return report
  }

  /// Every 201 names an event the table holds, with the payload POSTed.
  func checkAcknowledgedEventsAreStored() async {
    let posted = ledger.state.withLock { $0.payloads }
    var missing = 0
    for (topic, payloads) in posted {
      let stored = (try? await Database.with(options.postgres, logger: logger) { try await $0.payloads(of: topic) })
      for (id, payload) in payloads where stored?[id] != payload { missing += 1 }
    }
    let count = posted.values.reduce(0) { $0 + $1.count }
    report.check(
      missing == 0, "each of the \(count) events answered 201 is in the table, with its payload",
      otherwise: "\(missing) acknowledged events missing or different")
  }

  /// Two NOTIFYs that are not ids are counted once per process and reach no client.
  func checkMalformedNotifications() async {
    let topic = topics[0]
    let before = await statistics()
    _ = try? await Database.with(options.postgres, logger: logger) { database in
      try await database.notify(topic.channel, payload: "not an id")
      try await database.notify(topic.channel, payload: "12abc")
    }
    let counted = await waitUntil(.seconds(10)) {
      let now = await statistics()
      return options.servers.allSatisfy {
        (now[$0.process]?.decodeFailures ?? 0) == (before[$0.process]?.decodeFailures ?? 0) + 2
      }
    }
    report.check(counted, "2 NOTIFY payloads that are not ids were counted once per process, delivered to nobody")
  }

  /// A client that comes back with its last id, to either process, as `?last_id=` or as a `Last-Event-ID` header,
  /// receives exactly what it missed, then live events.
  func checkResume() async {
    let topic = topics[0]
    let before = await publishAndWait(20, to: topic)
    var tasks: [Task<Void, Never>] = []
    var resumed: [LoadClient] = []
    for index in options.servers.indices {
      for form in [LoadClient.ResumeForm.query, .header] {
        let client = LoadClient(
          index: 10_000 + resumed.count, servers: options.servers, first: index, topic: topic,
          resumeAfter: before - 15, resumeForm: form)
        resumed.append(client)
        tasks.append(Task { [logger] in await client.run(logger: logger) })
      }
    }
    let last = await publishAndWait(5, to: topic)
    let received = await waitUntil(.seconds(20)) { resumed.allSatisfy { ($0.lastID ?? 0) >= last } }
    let ids = resumed.map { $0.arrivals.map(\.id) }
    report.check(
      received && ids.allSatisfy { $0 == Array(before - 14...last) },
      "a client resuming after id \(before - 15), on either process, with ?last_id= and with a Last-Event-ID header, "
        + "received ids \(before - 14) to \(last) once, in order",
      otherwise: "received \(ids.map { "\($0.first ?? 0)…\($0.last ?? 0) (\($0.count))" })")
    for client in resumed { client.leaveTopic() }
    for task in tasks { await task.value }
  }

  /// POSTs `count` events to `topic` and returns the topic's last id.
  private func publishAndWait(_ count: Int, to topic: TopicName) async -> Int {
    _ = await publish(count, to: [topic], publishers: 1, tag: "resume")
    return (try? await Database.with(options.postgres, logger: logger) { try await $0.lastIDs() })?[topic.rawValue] ?? 0
  }

  /// A client that resumes after an id older than the servers keep gets a `reset` frame naming where it resumes,
  /// then every event kept.
  func checkReset() async {
    let topic = TopicName("history")!
    let count = options.retentionCount + 100
    await appendDirectly(count, to: [topic], notify: false)
    // The servers prune every few seconds.
    let pruned = await waitUntil(.seconds(15)) {
      let oldest = try? await Database.with(options.postgres, logger: logger) { try await $0.oldestID(of: topic) }
      return oldest == 101
    }
    report.check(pruned, "retention kept the newest \(options.retentionCount) events of a topic of \(count)")
    let client = LoadClient(index: 20_000, servers: options.servers, first: 1, topic: topic, resumeAfter: 0)
    let task = Task { [logger] in await client.run(logger: logger) }
    let received = await waitUntil(.seconds(30)) { (client.lastID ?? 0) >= count }
    let ids = client.arrivals.map(\.id)
    report.check(
      received && client.resets == 1 && ids == Array(101...count),
      "a client resuming after id 0 got one reset frame, then ids 101 to \(count) once, in order",
      otherwise: "\(client.resets) resets, received \(ids.first ?? 0)…\(ids.last ?? 0) (\(ids.count))")
    client.leaveTopic()
    await task.value
  }

  /// Stores `options.catchUp` events on a topic of their own, then times one client from connecting with id 0 to its
  /// last event.
  func timeCatchUp() async -> Duration {
    let topic = TopicName("catch-up")!
    await appendDirectly(options.catchUp, to: [topic], notify: false)
    let client = LoadClient(index: 30_000, servers: options.servers, first: 0, topic: topic, resumeAfter: 0)
    let started = ContinuousClock.now
    let task = Task { [logger] in await client.run(logger: logger) }
    let received = await waitUntil(.seconds(120)) { (client.lastID ?? 0) >= options.catchUp }
    let elapsed = ContinuousClock.now - started
    let ids = client.arrivals.map(\.id)
    report.check(
      received && ids == Array(1...options.catchUp),
      "a client caught up \(options.catchUp) events from the table in \(elapsed.milliseconds), once each, in order",
      otherwise: "received \(ids.count)")
    client.leaveTopic()
    await task.value
    return elapsed
  }

  /// Appends per second from `publishers` concurrent writers straight to the table, each on a topic of its own, with
  /// NOTIFY in the transaction and without.
  func measureAppends() async -> (withNotify: Double, withoutNotify: Double) {
    let count = max(options.publishers * 50, 1_000)
    let topics = (0..<options.publishers).map { TopicName("bench-\($0)")! }
    let withNotify = Double(count) / (await appendDirectly(count, to: topics, notify: true)).seconds
    let withoutNotify = Double(count) / (await appendDirectly(count, to: topics, notify: false)).seconds
    report.check(
      withNotify > 0 && withoutNotify > 0,
      String(
        format: "appends from %d writers: %.0f/s with NOTIFY in the transaction, %.0f/s without",
        options.publishers, withNotify, withoutNotify))
    return (withNotify, withoutNotify)
  }

  /// Appends `count` events over `topics` through the servers' own `EventStore`, from `options.publishers` writers;
  /// returns the time it took.
  @discardableResult
  func appendDirectly(_ count: Int, to topics: [TopicName], notify: Bool) async -> Duration {
    var configuration = PostgresClient.Configuration(
      host: options.postgres.host, port: options.postgres.port, username: options.postgres.username,
      password: options.postgres.password, database: options.postgres.database, tls: .disable)
    configuration.options.maximumConnections = options.publishers
    configuration.options.minimumConnections = options.publishers
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    let running = Task { await client.run() }
    let store = EventStore(client: client, logger: logger)
    // Warm: every connection open before the clock starts.
    _ = try? await store.lastID(of: topics[0])
    try? await Task.sleep(for: .milliseconds(200))
    let started = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<options.publishers {
        group.addTask {
          for number in stride(from: writer, to: count, by: options.publishers) {
            let payload = TopicEvent.posted(id: number, text: "direct \(number)").json
            _ = try? await store.append(payload, to: topics[number % topics.count], notify: notify)
          }
        }
      }
    }
    let elapsed = ContinuousClock.now - started
    running.cancel()
    return elapsed
  }
}

extension Duration {
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// Milliseconds with one decimal, without the unit: what a `figure` line carries.
  var millisecondsValue: String {
    String(format: "%.1f", seconds * 1000)
  }
}
