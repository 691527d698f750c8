import Foundation
import JWTKit
import LiveUpdates
import Synchronization

extension AdversarialCheck {
  /// POSTs with a token that is not an operator's, one after another, past the burst: some are refused with 429 and
  /// a `Retry-After`.
  func publishPastTheRateLimit(on server: CheckOptions.Server) async throws {
    let token = try await CheckToken.mint(
      key: key,
      AccessClaims(
        subject: "adv-rate", expiration: ExpirationClaim(value: Date(timeIntervalSinceNow: 3600)),
        publish: ["adv-rate"]))
    let headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
    var (stored, limited, withRetryAfter) = (0, 0, 0)
    // A connection each: a server may close one whose request it refused before reading the body.
    for id in 0..<options.ratePosts {
      let body = TopicEvent.posted(id: id, text: "burst").json
      let response = try await exchange(
        RawResponse.request("POST", "/topics/adv-rate", headers: headers, body: body), with: server)
      guard let response else { continue }
      if response.status == 201 { stored += 1 }
      if response.status == 429 {
        limited += 1
        if let seconds = Int(response.headers["retry-after"] ?? ""), seconds >= 1 { withRetryAfter += 1 }
        if limited == 1 {
          expectRefusal(response, status: 429, kind: .rateLimited, on: server.process, "a burst")
        } else {
          provoked.add(.rateLimited, on: server.process)
        }
      }
    }
    report.figure("rate-limited-posts", "\(limited) of \(options.ratePosts) (\(stored) stored)")
    report.check(
      limited > 0 && withRetryAfter == limited,
      "\(options.ratePosts) POSTs at once with one token: some refused with 429 and a Retry-After",
      otherwise: "\(limited) refused, \(withRetryAfter) with Retry-After, \(stored) stored")
  }

  /// Clients that each subscribe to a topic of their own and leave, many at once, on both servers: far more topics
  /// than a process keeps. Then a new topic is still served, and its events delivered.
  func churnTopics() async throws {
    let servers = options.servers
    let total = options.adversarialTopics
    let evictedBefore = await servers.asyncSum { await Metrics.read(from: $0).evicted }
    let start = ContinuousClock.now
    let blocked = await withTaskGroup(of: Bool.self) { group in
      var next = 0
      var blocked = 0
      func add() {
        let topic = "adv-t-\(next)"
        let server = servers[next % servers.count]
        group.addTask { await subscribe(to: topic, on: server, staying: false) != nil }
        next += 1
      }
      while next < min(total, options.topicConcurrency) { add() }
      for await served in group {
        if !served { blocked += 1 }
        if next < total { add() }
      }
      return blocked
    }
    let elapsed = start.duration(to: .now)
    var freshBlocked = 0
    for server in servers {
      guard let client = await subscribe(to: "adv-fresh", on: server, staying: true) else {
        freshBlocked += 1
        continue
      }
      let publisher = try await HTTPConnection.connect(host: server.host, port: server.port)
      _ = try await ServerAPI().post(.posted(id: 1, text: "fresh"), to: TopicName("adv-fresh")!, through: publisher)
      await publisher.close()
      if !(await client.receive(until: { $0.contains(#""event":"#) }).text.contains(#""event":"#)) { freshBlocked += 1 }
      await client.close()
    }
    let evicted = await servers.asyncSum { await Metrics.read(from: $0).evicted } - evictedBefore
    report.figure("topics-churned", "\(total) in \(elapsed.milliseconds), \(options.topicConcurrency) at once")
    report.figure("topics-evicted", "\(evicted)")
    report.figure("topics-blocked", "\(blocked + freshBlocked)")
    report.check(
      blocked + freshBlocked == 0, "\(total) short-lived topics, then a new topic on each server: all served",
      otherwise: "\(blocked) of the short-lived topics and \(freshBlocked) new ones not served")
    report.check(evicted > 0, "topics were evicted to make room", otherwise: "none evicted")
  }

  /// Upgrades to `topic` with the operator's token and waits for `subscribed`; the client, or `nil` if it was not
  /// served. Unless `staying`, the connection is closed at once, and the client returned is closed.
  func subscribe(to topic: String, on server: CheckOptions.Server, staying: Bool, receiveBuffer: Int? = nil) async
    -> RawClient?
  {
    guard let client = try? await RawClient.connect(host: server.host, port: server.port, receiveBuffer: receiveBuffer)
    else { return nil }
    let headers = RawResponse.upgradeHeaders + [("Authorization", "Bearer \(CheckToken.bearer ?? "")")]
    try? await client.send(RawResponse.request("GET", "/topics/\(topic)", headers: headers))
    let received = await client.receive(until: { $0.contains(#""kind":"#) })
    let served = received.text.hasPrefix("HTTP/1.1 101") && received.text.contains(#""kind":"subscribed""#)
    if !served || !staying { await client.close() }
    return served ? client : nil
  }

  /// WebSockets that never read, flooded with large events: each is closed within the deadline and a margin, and
  /// counted as a slow client, none as anything else.
  func stallSlowClients() async throws {
    let servers = options.servers
    let count = options.slowClients
    let slowBefore = await servers.asyncSum { await Metrics.read(from: $0).slowClients }
    let unavailableBefore = try await servers.asyncSum {
      try await ServerAPI().statistics(of: $0).clientsClosedUnavailable
    }
    var clients: [RawClient] = []
    for index in 0..<count {
      guard
        let client = await subscribe(
          to: "adv-slow", on: servers[index % servers.count], staying: true, receiveBuffer: 4096)
      else { continue }
      try await client.stopReading()
      clients.append(client)
    }
    report.check(
      clients.count == count, "\(count) WebSockets that never read are subscribed", otherwise: "\(clients.count)")
    let publisher = try await HTTPConnection.connect(host: servers[0].host, port: servers[0].port)
    let text = String(repeating: "x", count: TopicEvent.maximumPayloadSize - 100)
    let floodStart = ContinuousClock.now
    for id in 0..<options.floodEvents {
      _ = try await ServerAPI().post(.posted(id: id, text: text), to: TopicName("adv-slow")!, through: publisher)
    }
    await publisher.close()
    let floodEnd = ContinuousClock.now
    let bound = options.slowClientDeadline + .seconds(3)
    var closed = 0
    while floodEnd.duration(to: .now) < bound {
      closed = await servers.asyncSum { await Metrics.read(from: $0).slowClients } - slowBefore
      if closed >= clients.count { break }
      try await Task.sleep(for: .milliseconds(250))
    }
    let allClosed = floodEnd.duration(to: .now)
    let stillOpen = await withTaskGroup(of: Bool.self) { group in
      for client in clients { group.addTask { await !client.closedByServer(within: .seconds(5)) } }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    for client in clients { await client.close() }
    try await Task.sleep(for: .milliseconds(500))
    let counted = await servers.asyncSum { await Metrics.read(from: $0).slowClients } - slowBefore
    let unavailable =
      try await servers.asyncSum { try await ServerAPI().statistics(of: $0).clientsClosedUnavailable }
      - unavailableBefore
    report.figure(
      "slow-clients-flood", "\(options.floodEvents) events in \(floodStart.duration(to: floodEnd).milliseconds)")
    report.figure("slow-clients-closed-after-flood", allClosed.milliseconds)
    report.figure("slow-clients-open-after-deadline", "\(max(0, clients.count - closed) + stillOpen)")
    report.check(
      closed >= clients.count && stillOpen == 0,
      "every never-reading client is closed within the deadline and \(bound - options.slowClientDeadline) of the flood",
      otherwise: "\(closed) counted closed in time, \(stillOpen) still open by their own socket")
    report.check(
      counted == clients.count && unavailable == 0, "each counted once, as a slow client",
      otherwise: "\(counted) slow clients counted, \(unavailable) closed as unavailable")
  }
}

extension Array where Element == CheckOptions.Server {
  /// The sum of `value` over the servers, one after another.
  func asyncSum(_ value: (CheckOptions.Server) async throws -> Int) async rethrows -> Int {
    var sum = 0
    for server in self { sum += try await value(server) }
    return sum
  }
}
