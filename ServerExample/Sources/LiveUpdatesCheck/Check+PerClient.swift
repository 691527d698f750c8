import Foundation
import LiveUpdates

extension Check {
  /// The per-client design: one LISTEN connection per client, until PostgreSQL has no more to give.
  func runPerClient() async -> Report {
    let clients = makeClients()
    var tasks: [Task<Void, Never>] = []
    let postings = Postings()
    print("# \(clients.count) clients on \(options.topics) topics over \(options.servers.count) processes (per-client)")

    let settled = await connect(clients, tasks: &tasks)
    report.check(settled, "every client was answered: subscribed, or turned away", otherwise: unanswered(clients))
    let subscribed = clients.filter(\.isSubscribed)
    let refused = clients.filter { !$0.isSubscribed }
    let reasons = Set(
      refused.flatMap(\.frames).compactMap { frame -> String? in
        guard frame.text.hasPrefix(#"{"kind":"unavailable""#) else { return nil }
        return try? JSONDecoder().decode(ParsedFrame.self, from: Data(frame.text.utf8)).reason
      })
    let held = ((try? await database.listenConnections()) ?? [:]).values.reduce(0, +)
    let serverConnections = (try? await database.serverConnections()) ?? -1
    let (maxConnections, limit) = (try? await database.connectionLimitForUsers()) ?? (-1, -1)
    report.check(
      held == subscribed.count,
      "pg_stat_activity: one LISTEN connection per subscribed client (\(held) for \(subscribed.count) clients)")
    report.check(
      !refused.isEmpty && reasons.contains { $0.contains("too many clients") || $0.contains("reserved") },
      "PostgreSQL ran out of connections at max_connections = \(maxConnections): \(refused.count) of "
        + "\(clients.count) clients turned away (\(reasons.sorted().joined(separator: "; ")))",
      otherwise: "no client was refused for lack of connections")

    // The clients that did subscribe get their events, each decoded by each client.
    var expected = await sendRound(from: 1, count: options.events, to: topics, postings: postings)
    for topic in topics where !subscribed.contains(where: { $0.topic == topic }) { expected[topic] = [] }
    let delivered = await waitForDelivery(subscribed, expected: expected)
    let errors = deliveryErrors(subscribed, expected: expected) { _ in 0 }
    report.check(
      delivered && errors.isEmpty,
      "every subscribed client received every event of its topic exactly once, in order",
      otherwise: "\(errors.count) clients wrong; \(errors.prefix(3).joined(separator: "; "))")
    let latencies = self.latencies(subscribed, ids: expected, postings: postings)

    let before = await statistics()
    try? await database.notify(topics[0].channel, payload: "not json")
    let decodesPerProcess = options.servers.map { server in
      subscribed.filter { $0.server.process == server.process && $0.topic == topics[0] }.count
    }
    let counted = await waitUntil(.seconds(10)) {
      let now = await statistics()
      return zip(options.servers, decodesPerProcess).allSatisfy { server, clients in
        (now[server.process]?.decodeFailures ?? 0) - (before[server.process]?.decodeFailures ?? 0) == clients
      }
    }
    report.check(
      counted, "a malformed payload was decoded, and counted, once per client: \(decodesPerProcess) per process")

    for client in clients { client.leaveTopic() }
    let closed = await waitUntil(options.closeBound + .seconds(10)) {
      ((try? await database.listenConnections()) ?? ["?": 1]).isEmpty
    }
    report.check(closed, "no LISTEN connection left after the clients left")
    for task in tasks { await task.value }

    print("# figures")
    report.figure("design: per-client, one LISTEN connection per WebSocket client")
    report.figure("clients: \(clients.count), subscribed: \(subscribed.count), turned away: \(refused.count)")
    report.figure(
      "LISTEN connections held: \(held); all server connections (LISTEN and NOTIFY): \(serverConnections); "
        + "max_connections: \(maxConnections), of which \(limit) for non-superusers")
    report.figure(
      "POST-to-last-client latency over \(latencies.count) events, one per topic every \(options.interval.milliseconds): "
        + "p50 \(quantile(latencies, 0.5).milliseconds), p99 \(quantile(latencies, 0.99).milliseconds), "
        + "max \(quantile(latencies, 1).milliseconds) (subscribed clients only)")
    return report
  }
}
