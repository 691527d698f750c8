import Foundation
import JWTKit
import LiveUpdates

/// The adversarial round (`--adversarial`): requests an attacker would send, each of which must be refused with the
/// right status and a JSON reason and counted in `/metrics` under that reason; a burst past the rate limit; upgrades
/// racing for the last slots of a token; connections that never finish their request head; twenty thousand
/// short-lived topics; thousands of short sessions, and the memory they leave; a hundred WebSockets that never read. It ends with `figure` lines, among them the
/// servers' resident memory before and after.
struct AdversarialCheck: Sendable {
  let options: CheckOptions
  let report = Report()
  /// The servers' token key, to mint tokens that are valid but wrong, expired or for another topic.
  let key: String
  /// Refusals provoked, per server and reason: what `/metrics` must show as counted.
  let provoked = ProvokedRefusals()

  func run() async -> Report {
    let servers = options.servers
    let rssBefore = residentMemory()
    var before: [String: Metrics] = [:]
    for server in servers { before[server.process] = await Metrics.read(from: server) }
    do {
      var accepted = (unauthorized: 0, crossOrigin: 0)
      for server in servers {
        let (unauthorized, crossOrigin) = try await attackAccess(of: server)
        accepted.unauthorized += unauthorized
        accepted.crossOrigin += crossOrigin
      }
      report.figure("unauthorized-accepted", "\(accepted.unauthorized)")
      report.check(accepted.unauthorized == 0, "unauthorized-accepted 0", otherwise: "\(accepted.unauthorized)")
      report.figure("cross-origin-accepted", "\(accepted.crossOrigin)")
      report.check(accepted.crossOrigin == 0, "cross-origin-accepted 0", otherwise: "\(accepted.crossOrigin)")
      try await publishPastTheRateLimit(on: servers[0])
      try await raceUpgradesAtTheLimit(on: servers[1])
      try await holdHalfSentRequests()
      try await churnTopics()
      try await churnSessions()
      try await stallSlowClients()
    } catch {
      report.check(false, "the adversarial round ran to its end", otherwise: String(reflecting: error))
    }
    var uncounted = 0
    for server in servers {
      let after = await Metrics.read(from: server)
      for (kind, count) in provoked.counts(of: server.process) {
        let counted = after.refusals[kind.rawValue, default: 0] - (before[server.process]?.refusals[kind.rawValue] ?? 0)
        uncounted += max(0, count - counted)
        report.check(
          counted >= count,
          "server \(server.process): \(count) \(kind.rawValue) refusals provoked, counted in /metrics",
          otherwise: "counted \(counted)")
      }
    }
    report.figure("refusals-uncounted", "\(uncounted)")
    report.figure("rss-before-kb", rssBefore)
    report.figure("rss-after-kb", residentMemory())
    return report
  }

  /// Each server's `VmRSS`, in kB, as `a=51234,b=50876`.
  private func residentMemory() -> String {
    options.serverPIDs.sorted { $0.key < $1.key }.map { name, pid in
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
      return "\(name)=\(line.split(separator: " ").dropFirst().first ?? "unknown")"
    }.joined(separator: ",")
  }

  /// Upgrades and POSTs with no token, a forged one, an expired one and one for another topic: 401, 401, 401, 403,
  /// each with a JSON reason. Then an origin not listed (403), bodies that are not JSON (415), and a preflight (204).
  /// Returns how many of each were accepted (a `101` or a `2xx`).
  private func attackAccess(of server: CheckOptions.Server) async throws -> (unauthorized: Int, crossOrigin: Int) {
    let topic = "adv-secure"
    let claims = AccessClaims(
      subject: "attacker", expiration: ExpirationClaim(value: Date(timeIntervalSinceNow: 3600)), subscribe: ["*"],
      publish: ["*"])
    let forged = try await CheckToken.mint(key: key + "-not-the-key", claims)
    var expiredClaims = claims
    expiredClaims.exp = ExpirationClaim(value: Date(timeIntervalSinceNow: -60))
    let expired = try await CheckToken.mint(key: key, expiredClaims)
    var otherClaims = claims
    otherClaims.subscribe = ["adv-other"]
    otherClaims.publish = ["adv-other"]
    let other = try await CheckToken.mint(key: key, otherClaims)
    let event = TopicEvent.posted(id: 1, text: "not allowed").json
    let json = [("Content-Type", "application/json")]
    // (what, request, expected status, reason counted)
    let attacks: [(String, String, Int, Refusal.Kind)] = [
      ("upgrade without a token", upgrade(topic), 401, .unauthorized),
      ("upgrade with a forged token", upgrade(topic, [("Authorization", "Bearer \(forged)")]), 401, .unauthorized),
      ("upgrade with an expired token in ?token=", upgrade("\(topic)?token=\(expired)"), 401, .unauthorized),
      (
        "upgrade with a token for another topic", upgrade(topic, [("Authorization", "Bearer \(other)")]), 403,
        .forbidden
      ),
      (
        "POST without a token", RawResponse.request("POST", "/topics/\(topic)", headers: json, body: event), 401,
        .unauthorized
      ),
      (
        "POST with a forged token", post(topic, json + [("Authorization", "Bearer \(forged)")], event), 401,
        .unauthorized
      ),
      (
        "POST with an expired token", post(topic, json + [("Authorization", "Bearer \(expired)")], event), 401,
        .unauthorized
      ),
      (
        "POST with a token for another topic", post(topic, json + [("Authorization", "Bearer \(other)")], event), 403,
        .forbidden
      ),
    ]
    var accepted = 0
    for (what, request, status, kind) in attacks {
      let response = try await exchange(request, with: server)
      if let code = response?.status, code < 300 { accepted += 1 }
      expectRefusal(response, status: status, kind: kind, on: server.process, what)
    }
    let unauthorizedAccepted = accepted

    let operatorToken = [("Authorization", "Bearer \(CheckToken.bearer ?? "")")]
    let crossOrigin: [(String, String, Int, Refusal.Kind)] = [
      (
        "upgrade from Origin http://evil.example", upgrade(topic, operatorToken + [("Origin", "http://evil.example")]),
        403, .crossOrigin
      ),
      (
        "POST of text/plain", post(topic, operatorToken + [("Content-Type", "text/plain")], event), 415,
        .unsupportedMediaType
      ),
      (
        "POST of a form", post(topic, operatorToken + [("Content-Type", "application/x-www-form-urlencoded")], "a=1"),
        415, .unsupportedMediaType
      ),
    ]
    accepted = 0
    for (what, request, status, kind) in crossOrigin {
      let response = try await exchange(request, with: server)
      if let code = response?.status, code < 300 { accepted += 1 }
      expectRefusal(response, status: status, kind: kind, on: server.process, what)
    }
    let preflight = try await exchange(
      RawResponse.request("OPTIONS", "/topics/\(topic)", headers: [("Origin", "ws://127.0.0.1")]), with: server)
    report.check(
      preflight?.status == 204, "server \(server.process): OPTIONS /topics/\(topic) is answered 204",
      otherwise: "status \(preflight?.status ?? 0)")
    return (unauthorizedAccepted, accepted)
  }

  private func upgrade(_ path: String, _ headers: [(String, String)] = []) -> String {
    RawResponse.request("GET", "/topics/\(path)", headers: RawResponse.upgradeHeaders + headers)
  }

  private func post(_ topic: String, _ headers: [(String, String)], _ body: String) -> String {
    RawResponse.request("POST", "/topics/\(topic)", headers: headers, body: body)
  }

  /// Sends `request` on a connection of its own; the response, or `nil` if none came.
  func exchange(_ request: String, with server: CheckOptions.Server) async throws -> RawResponse? {
    let client = try await RawClient.connect(host: server.host, port: server.port)
    try await client.send(request)
    let received = await client.receive(until: { RawResponse($0) != nil })
    await client.close()
    return RawResponse(received.text)
  }

  /// Checks that `response` is a refusal with `status` and a JSON body naming `kind` with a reason, and notes it as
  /// provoked.
  func expectRefusal(_ response: RawResponse?, status: Int, kind: Refusal.Kind, on process: String, _ what: String) {
    let body = response.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.body.utf8)) }
    let holds =
      response?.status == status && (response?.headers["content-type"] ?? "").hasPrefix("application/json")
      && body?["error"] == kind.rawValue && !(body?["reason"] ?? "").isEmpty
    report.check(
      holds, "server \(process): \(what): \(status) with a JSON reason (\(kind.rawValue))",
      otherwise: "status \(response?.status ?? 0), body \(response?.body ?? "none")")
    if response?.status == status { provoked.add(kind, on: process) }
  }
}
