import LiveUpdates

extension Check {
  /// The shared design: one LISTEN connection per topic per process, whatever the number of clients.
  func runShared() async -> Report {
    let clients = makeClients()
    var tasks: [Task<Void, Never>] = []
    let postings = Postings()
    var latencies: [Duration] = []
    var firstLatencies: [Duration] = []
    print("# \(clients.count) clients on \(options.topics) topics over \(options.servers.count) processes (shared)")

    // Connect.
    let settled = await connect(clients, tasks: &tasks)
    let subscribed = clients.filter(\.isSubscribed).count
    report.check(
      settled && subscribed == clients.count, "all \(clients.count) WebSocket clients subscribed",
      otherwise: "\(subscribed) subscribed; \(unanswered(clients)); first failure: "
        + "\(clients.compactMap(\.failure).first ?? "none")")
    let listening = await waitUntil(.seconds(10)) {
      await statistics().values.allSatisfy { $0.listeningTopics == options.topics }
    }
    report.check(listening, "every process has its \(options.topics) topics' LISTEN in place")
    let held = (try? await database.listenConnections()) ?? [:]
    report.check(
      held == sharedListenConnections,
      "pg_stat_activity: exactly one LISTEN connection per topic per process (\(sharedListenConnections.count) for "
        + "\(clients.count) clients)",
      otherwise: "found \(held)")
    let serverConnections = (try? await database.serverConnections()) ?? -1

    // Round one: every client gets every event of its topic, once, in order.
    var expected = await sendRound(from: 1, count: options.events, to: topics, postings: postings)
    var delivered = await waitForDelivery(clients, expected: expected)
    var errors = deliveryErrors(clients, expected: expected) { _ in 0 }
    report.check(
      delivered && errors.isEmpty,
      "every client received every event of its topic exactly once, in order (\(options.events) per topic)",
      otherwise: "\(errors.count) clients wrong; \(errors.prefix(3).joined(separator: "; "))")
    latencies += self.latencies(clients, ids: expected, postings: postings)
    firstLatencies += self.latencies(clients, ids: expected, postings: postings, first: true)

    // A malformed payload, NOTIFY'd by hand, is counted and delivered to nobody.
    let badTopic = topics[0]
    let before = await statistics()
    try? await database.notify(badTopic.channel, payload: "not json")
    try? await database.notify(badTopic.channel, payload: #"{"kind":"posted","id":"seven","text":"x"}"#)
    let counted = await waitUntil(.seconds(10)) {
      let now = await statistics()
      return options.servers.allSatisfy {
        (now[$0.process]?.decodeFailures ?? 0) >= (before[$0.process]?.decodeFailures ?? 0) + 2
      }
    }
    let sentinel = options.events + 1
    let sentinelIDs = await sendRound(from: sentinel, count: 1, to: [badTopic], postings: postings)
    expected[badTopic, default: []] += sentinelIDs[badTopic] ?? []
    delivered = await waitForDelivery(clients, expected: expected)
    errors = deliveryErrors(clients, expected: expected) { _ in 0 }
    let after = await statistics()
    let failuresPerProcess = options.servers.map {
      (after[$0.process]?.decodeFailures ?? 0) - (before[$0.process]?.decodeFailures ?? 0)
    }
    report.check(
      counted && failuresPerProcess.allSatisfy { $0 == 2 },
      "2 malformed NOTIFY payloads were counted once per process (decoded once, not once per client)",
      otherwise: "decode failures per process: \(failuresPerProcess)")
    report.check(
      delivered && errors.isEmpty, "the malformed payloads reached no client; the next event reached all",
      otherwise: "\(errors.prefix(3).joined(separator: "; "))")

    // A LISTEN connection terminated by PostgreSQL: reconnected with backoff, the loss reported, delivery resumes.
    let lostServer = options.servers[0]
    let lostTopic = topics[min(1, topics.count - 1)]
    let lostName = "live-updates \(lostServer.process) listen \(lostTopic.channel)"
    let beforeLoss = await statistics()[lostServer.process]
    let terminatedAt = ContinuousClock.now
    let terminated = (try? await database.terminate(applicationName: lostName)) ?? 0
    report.check(
      terminated == 1, "pg_terminate_backend ended \(lostServer.process)'s LISTEN connection for \(lostTopic)")
    let reconnected = await waitUntil(.seconds(15)) {
      guard let now = try? await api.statistics(of: lostServer), let beforeLoss else { return false }
      return now.reconnects == beforeLoss.reconnects + 1 && now.listeningTopics == options.topics
    }
    let gap = ContinuousClock.now - terminatedAt
    let afterLoss = await statistics()[lostServer.process]
    report.check(
      reconnected && afterLoss?.connectionLosses == (beforeLoss?.connectionLosses ?? 0) + 1,
      "\(lostServer.process) counted the loss and reconnected (connectionLosses \(afterLoss?.connectionLosses ?? -1), "
        + "reconnects \(afterLoss?.reconnects ?? -1), after \(gap.milliseconds))")
    // The terminated backend stays in pg_stat_activity until its process has exited, which can be after the
    // reconnect: poll until it has gone.
    var heldAgain: [String: Int] = [:]
    let heldOneAgain = await waitUntil(.seconds(10)) {
      heldAgain = (try? await database.listenConnections()) ?? [:]
      return heldAgain == sharedListenConnections
    }
    report.check(
      heldOneAgain,
      "pg_stat_activity: again exactly one LISTEN connection per topic per process", otherwise: "found \(heldAgain)")
    let affected: (LoadClient) -> Int = { $0.server.process == lostServer.process && $0.topic == lostTopic ? 1 : 0 }
    let told = await waitUntil(.seconds(10)) {
      clients.allSatisfy { client in
        client.frames.filter { $0.text == ControlFrame.eventsMissed }.count == affected(client)
      }
    }
    report.check(
      told,
      "the loss was reported to the \(clients.filter { affected($0) == 1 }.count) clients it touched, "
        + "and to no other (an events-missed frame)")
    let second = await sendRound(from: sentinel + 1, count: options.events, to: topics, postings: postings)
    for (topic, ids) in second { expected[topic, default: []] += ids }
    delivered = await waitForDelivery(clients, expected: expected)
    errors = deliveryErrors(clients, expected: expected, missedFrames: affected)
    report.check(
      delivered && errors.isEmpty,
      "after the reconnect every client received every new event exactly once, in order",
      otherwise: "\(errors.count) clients wrong; \(errors.prefix(3).joined(separator: "; "))")
    latencies += self.latencies(clients, ids: second, postings: postings)
    firstLatencies += self.latencies(clients, ids: second, postings: postings, first: true)

    // Everyone leaves: the LISTEN connections close.
    let leftAt = ContinuousClock.now
    for client in clients { client.leaveTopic() }
    let closed = await waitUntil(options.closeBound + .seconds(10)) {
      ((try? await database.listenConnections()) ?? ["?": 1]).isEmpty
    }
    let closeTime = ContinuousClock.now - leftAt
    report.check(
      closed && closeTime <= options.closeBound,
      "no LISTEN connection left \(closeTime.milliseconds) after the last client left (bound "
        + "\(options.closeBound.milliseconds))")
    _ = await waitUntil(.seconds(10)) { clients.allSatisfy(\.hasEnded) }
    for task in tasks { await task.value }

    print("# figures")
    report.figure("design: shared, one LISTEN connection per topic per process")
    report.figure("clients: \(clients.count), topics: \(options.topics), processes: \(options.servers.count)")
    report.figure(
      "LISTEN connections held: \(held.values.reduce(0, +)); all server connections (LISTEN and NOTIFY): \(serverConnections)"
    )
    report.figure(
      "POST-to-last-client latency over \(latencies.count) events, one per topic every \(options.interval.milliseconds): "
        + "p50 \(quantile(latencies, 0.5).milliseconds), p99 \(quantile(latencies, 0.99).milliseconds), "
        + "max \(quantile(latencies, 1).milliseconds)")
    report.figure(
      "POST-to-first-client: p50 \(quantile(firstLatencies, 0.5).milliseconds), p99 "
        + "\(quantile(firstLatencies, 0.99).milliseconds); POST round trip: p50 "
        + "\(quantile(postings.roundTrips, 0.5).milliseconds), p99 \(quantile(postings.roundTrips, 0.99).milliseconds)")
    report.figure(
      "loss to reconnect: \(gap.milliseconds); last client gone to no LISTEN connection: \(closeTime.milliseconds)")
    return report
  }
}
