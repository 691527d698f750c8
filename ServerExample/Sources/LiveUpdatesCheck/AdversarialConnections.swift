import Foundation
import JWTKit
import LiveUpdates

extension AdversarialCheck {
  /// Slowloris: connections that send the start of a request head and nothing more, on both servers. Each must be
  /// closed by the server within its `--request-head-timeout-ms` and a margin, and counted in `/metrics`; a valid
  /// request meanwhile is answered.
  func holdHalfSentRequests() async throws {
    let servers = options.servers
    let closedBefore = await servers.asyncSum { await Metrics.read(from: $0).headTimeouts }
    var clients: [RawClient] = []
    for index in 0..<options.slowlorisConnections {
      let server = servers[index % servers.count]
      guard let client = try? await RawClient.connect(host: server.host, port: server.port) else { continue }
      try? await client.send("GET /stats HTTP/1.1\r\nHost: x\r\n")
      clients.append(client)
    }
    let opened = ContinuousClock.now
    report.check(
      clients.count == options.slowlorisConnections,
      "\(options.slowlorisConnections) connections hold a half-sent request head",
      otherwise: "\(clients.count) connected")
    // While they are held, a valid request is answered.
    let stats = try await exchange(
      RawResponse.request("GET", "/stats", headers: [("Authorization", "Bearer \(CheckToken.bearer ?? "")")]),
      with: servers[0])
    report.check(
      stats?.status == 200, "a valid GET /stats is answered while they are held",
      otherwise: "status \(stats?.status ?? 0)")
    let bound = options.requestHeadTimeout + .seconds(3)
    let closedFlags = await withTaskGroup(of: Bool.self) { group in
      for client in clients { group.addTask { await client.closedByServer(within: bound) } }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    let allClosed = opened.duration(to: .now)
    for client in clients { await client.close() }
    let closed = closedFlags.count { $0 }
    let counted = await servers.asyncSum { await Metrics.read(from: $0).headTimeouts } - closedBefore
    report.figure("slowloris-closed", "\(closed) of \(clients.count) in \(allClosed.milliseconds)")
    report.figure("slowloris-counted", "\(counted)")
    report.check(
      closed == clients.count && counted == clients.count,
      "every half-sent request head is closed within --request-head-timeout-ms and 3 s, and counted as "
        + "request_head_timeout",
      otherwise: "\(closed) closed, \(counted) counted")
  }

  /// Upgrades racing at the limit per token: `--max-connections-per-client` minus two held, then twenty upgrades at
  /// once with the same token. Two are upgraded (each told `subscribed`), eighteen refused with 429 and
  /// `Retry-After`; none is upgraded and then closed, none gets a bare 400.
  func raceUpgradesAtTheLimit(on server: CheckOptions.Server) async throws {
    let token = try await CheckToken.mint(
      key: key,
      AccessClaims(
        subject: "adv-race", expiration: ExpirationClaim(value: Date(timeIntervalSinceNow: 3600)),
        subscribe: ["adv-race"]))
    let headers = RawResponse.upgradeHeaders + [("Authorization", "Bearer \(token)")]
    let request = RawResponse.request("GET", "/topics/adv-race", headers: headers)
    var held: [RawClient] = []
    for _ in 0..<(options.connectionsPerClient - 2) {
      let client = try await RawClient.connect(host: server.host, port: server.port)
      try await client.send(request)
      _ = await client.receive(until: { $0.contains(#""kind":"subscribed""#) })
      held.append(client)
    }
    let racers = options.racingUpgrades
    let clients = try await (0..<racers).asyncMap { _ in
      try await RawClient.connect(host: server.host, port: server.port)
    }
    let answers = await withTaskGroup(of: String.self) { group in
      for client in clients {
        group.addTask {
          try? await client.send(request)
          let received = await client.receive(until: { text in
            guard let response = RawResponse(text) else { return false }
            return response.status != 101 || text.contains(#""kind":"#)
          })
          if received.text.hasPrefix("HTTP/1.1 101") {
            // An upgraded client must stay open: no close frame follows its `subscribed`.
            let after = await client.receive(until: { _ in false }, timeout: .milliseconds(500))
            return received.text + (after.isClosed || !after.text.isEmpty ? " closed" : "")
          }
          return received.text
        }
      }
      return await group.reduce(into: [String]()) { $0.append($1) }
    }
    for client in clients + held { await client.close() }
    let served = answers.count {
      $0.hasPrefix("HTTP/1.1 101") && $0.contains(#""kind":"subscribed""#) && !$0.hasSuffix(" closed")
    }
    let refused = answers.count { text in
      guard let response = RawResponse(text) else { return false }
      return response.status == 429 && Int(response.headers["retry-after"] ?? "") ?? 0 >= 1
        && response.body.contains("too_many_connections")
    }
    if refused > 0 {
      for _ in 0..<refused { provoked.add(.tooManyConnections, on: server.process) }
    }
    let otherwise = racers - served - refused
    report.figure("racing-upgrades", "\(served) upgraded, \(refused) refused 429, \(otherwise) otherwise of \(racers)")
    report.check(
      served == 2 && refused == racers - 2,
      "\(racers) upgrades racing for 2 free slots: 2 upgraded and served, \(racers - 2) refused 429 with Retry-After",
      otherwise: "\(served) served, \(refused) refused 429, \(otherwise) otherwise: "
        + answers.filter { !$0.hasPrefix("HTTP/1.1 429") }.map { String($0.prefix(60)) }.joined(separator: " | "))
  }
}

extension Sequence where Element: Sendable {
  func asyncMap<Mapped>(_ transform: (Element) async throws -> Mapped) async rethrows -> [Mapped] {
    var result: [Mapped] = []
    for element in self { result.append(try await transform(element)) }
    return result
  }
}

extension AdversarialCheck {
  /// Short WebSocket sessions to one topic, many in a row on both servers, each subscribed and then closed by its
  /// client: what a session took must be given back. Each server's resident memory is read before and after (6 s
  /// after, once the 5 s deadlines of the queries have ended); the growth per session must stay under
  /// `--rss-growth-bound-bytes`.
  func churnSessions() async throws {
    let servers = options.servers
    let token = try await CheckToken.mint(
      key: key,
      AccessClaims(
        subject: "adv-churn", expiration: ExpirationClaim(value: Date(timeIntervalSinceNow: 3600)),
        subscribe: ["adv-churn"]))
    let headers = RawResponse.upgradeHeaders + [("Authorization", "Bearer \(token)")]
    let request = RawResponse.request("GET", "/topics/adv-churn", headers: headers)
    try await Task.sleep(for: .seconds(6))
    let before = residentKilobytes()
    let total = options.churnSessions
    // Fewer at once than the limit per token on each server.
    let concurrency = max(1, min(options.connectionsPerClient / 2, 4)) * servers.count
    let served = await withTaskGroup(of: Bool.self) { group in
      var next = 0
      var served = 0
      func add() {
        let server = servers[next % servers.count]
        group.addTask {
          guard let client = try? await RawClient.connect(host: server.host, port: server.port) else { return false }
          try? await client.send(request)
          let received = await client.receive(until: { $0.contains(#""kind":"#) })
          // A masked close frame, 1000; then the server's close, and the end of the connection.
          try? await client.send(bytes: [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8])
          _ = await client.receive(until: { _ in false }, timeout: .seconds(2))
          await client.close()
          return received.text.hasPrefix("HTTP/1.1 101") && received.text.contains(#""kind":"subscribed""#)
        }
        next += 1
      }
      while next < min(total, concurrency) { add() }
      for await ok in group {
        if ok { served += 1 }
        if next < total { add() }
      }
      return served
    }
    try await Task.sleep(for: .seconds(6))
    let after = residentKilobytes()
    let perServer = Double(total) / Double(servers.count)
    var growth = 0
    for (name, kilobytes) in after {
      growth = max(growth, Int((Double(kilobytes - (before[name] ?? kilobytes)) * 1024 / perServer).rounded()))
    }
    report.figure("sessions-churned", "\(served) of \(total), \(concurrency) at once")
    report.figure(
      "rss-before-sessions-kb", before.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: ","))
    report.figure(
      "rss-after-sessions-kb", after.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: ","))
    report.figure("rss-growth-per-session-bytes", "\(growth)")
    report.check(served == total, "\(total) short WebSocket sessions were each served", otherwise: "\(served)")
    report.check(
      growth < options.rssGrowthBound,
      "rss-growth-per-session-bytes \(growth) is under \(options.rssGrowthBound)",
      otherwise: "the sessions left memory behind")
  }

  /// Each server's `VmRSS`, in kB, by name.
  func residentKilobytes() -> [String: Int] {
    var result: [String: Int] = [:]
    for (name, pid) in options.serverPIDs {
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
      result[name] = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }
    return result
  }
}
