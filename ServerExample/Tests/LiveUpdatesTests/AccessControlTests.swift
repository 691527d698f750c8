import Foundation
import Hummingbird
import JWTKit
import LiveUpdates
import Testing

@Suite struct AccessControlTests {
  static let key = String(repeating: "k", count: 32)
  let access: AccessControl = {
    var settings = AccessSettings()
    settings.key = AccessControlTests.key
    return AccessControl(settings)
  }()

  @Test func aTokenWithTheTopicInItsClaimsSubscribesAndPublishes() async throws {
    let token = try await Self.token(subscribe: ["prices.*"], publish: ["news"])
    let news = try #require(TopicName("news"))
    let eur = try #require(TopicName("prices.eur"))
    let claims = try await access.authorizeSubscription(Self.request("/topics/prices.eur", bearer: token), to: eur)
    #expect(claims.sub.value == "tester")
    _ = try await access.authorizePublishing(Self.request("/topics/news", bearer: token), to: news)
  }

  @Test func aTopicOutsideTheClaimsIsForbiddenWithItsReason() async throws {
    let token = try await Self.token(subscribe: ["prices.*"], publish: ["news"])
    let news = try #require(TopicName("news"))
    let eur = try #require(TopicName("prices.eur"))
    await #expect(throws: Refusal(.forbidden, "the token does not allow subscribing to news")) {
      try await access.authorizeSubscription(Self.request("/topics/news", bearer: token), to: news)
    }
    await #expect(throws: Refusal(.forbidden, "the token does not allow publishing to prices.eur")) {
      try await access.authorizePublishing(Self.request("/topics/prices.eur", bearer: token), to: eur)
    }
  }

  @Test func missingForgedMalformedAndExpiredTokensAreUnauthorized() async throws {
    let news = try #require(TopicName("news"))
    let forged = try await Self.token(subscribe: ["*"], key: String(repeating: "x", count: 32))
    let expired = try await Self.token(subscribe: ["*"], expiresIn: -5)
    let unsigned = try await Self.token(subscribe: ["*"]).split(separator: ".").prefix(2).joined(separator: ".") + "."
    let cases: [(Request, String)] = [
      (Self.request("/topics/news"), "a token is required"),
      (Self.request("/topics/news", bearer: forged), "invalid token"),
      (Self.request("/topics/news", bearer: "not.a.token"), "invalid token"),
      (Self.request("/topics/news", bearer: unsigned), "invalid token"),
      (Self.request("/topics/news", bearer: expired), "token expired"),
    ]
    for (request, reason) in cases {
      do {
        _ = try await access.authorizeSubscription(request, to: news)
        Issue.record("accepted: \(request.headers)")
      } catch {
        #expect(error.kind == .unauthorized)
        #expect(error.reason.hasPrefix(reason))
        #expect(error.status == .unauthorized)
      }
    }
  }

  @Test func theQueryParameterCarriesATokenForUpgradesOnly() async throws {
    let token = try await Self.token(subscribe: ["news"], publish: ["news"])
    let news = try #require(TopicName("news"))
    let request = Self.request("/topics/news?token=\(token)")
    _ = try await access.authorizeSubscription(request, to: news)
    await #expect(throws: Refusal.self) { try await access.authorizePublishing(request, to: news) }
  }

  @Test func onlyTheOperatorClaimReadsTheCounters() async throws {
    let plain = try await Self.token(subscribe: ["*"], publish: ["*"])
    let operatorToken = try await Self.token(operator: true)
    await #expect(throws: Refusal(.forbidden, "the token has no operator claim")) {
      try await access.authorizeOperator(Self.request("/metrics", bearer: plain))
    }
    _ = try await access.authorizeOperator(Self.request("/metrics", bearer: operatorToken))
  }

  @Test func developmentModeLetsEverythingThrough() async throws {
    var settings = AccessSettings()
    settings.developmentMode = true
    settings.key = Self.key
    let open = AccessControl(settings)
    #expect(open.isDevelopmentMode)
    _ = try await open.authorizeOperator(Self.request("/metrics"))
    _ = try await open.authorizePublishing(Self.request("/topics/a"), to: #require(TopicName("a")))
  }

  @Test func patternsMatchWithStarsAnywhere() throws {
    let cases: [(String, String, Bool)] = [
      ("news", "news", true), ("news", "news2", false), ("prices.*", "prices.eur", true),
      ("prices.*", "prices", false), ("prices.*", "prices.usd.spot", true), ("*", "anything", true),
      ("*-eu", "orders-eu", true), ("*-eu", "orders-us", false), ("a*b*c", "axxbyyc", true), ("a*b*c", "axxbyy", false),
      ("", "a", false),
    ]
    for (pattern, name, expected) in cases {
      #expect(TopicPattern(pattern).matches(try #require(TopicName(name))) == expected, "\(pattern) ~ \(name)")
    }
  }

  @Test func aRefusalAnswersJSONWithItsReason() {
    let refusal = Refusal(.rateLimited, "slow down", retryAfter: 2)
    #expect(refusal.json == #"{"error":"rate_limited","reason":"slow down"}"#)
    #expect(refusal.status == .tooManyRequests)
  }

  static func request(_ path: String, bearer: String? = nil, headers: HTTPFields = [:]) -> Request {
    var fields = headers
    if let bearer { fields[.authorization] = "Bearer \(bearer)" }
    let head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path, headerFields: fields)
    return Request(head: head, body: .init(buffer: ByteBuffer()))
  }

  static func token(
    subscribe: [String] = [], publish: [String] = [], operator: Bool = false, expiresIn seconds: TimeInterval = 60,
    key: String = key
  ) async throws -> String {
    let keys = JWTKeyCollection()
    await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
    let claims = AccessClaims(
      subject: "tester", expiration: ExpirationClaim(value: Date(timeIntervalSinceNow: seconds)),
      subscribe: subscribe, publish: publish, operator: `operator`)
    return try await keys.sign(claims)
  }
}
