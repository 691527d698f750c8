import Hummingbird
import LiveUpdates
import Testing

@Suite struct OriginPolicyTests {
  let policy = OriginPolicy(allowing: ["https://app.example.com", "http://localhost:3000/"])

  @Test func noOriginAndListedOriginsPassOthersAreCrossOrigin() {
    #expect(policy.allows(nil))
    #expect(policy.allows("https://app.example.com"))
    #expect(policy.allows("HTTPS://APP.EXAMPLE.COM/"))
    #expect(policy.allows("http://localhost:3000"))
    #expect(!policy.allows("https://evil.example"))
    #expect(!policy.allows("null"))
    #expect(throws: Refusal(.crossOrigin, "origin https://evil.example is not allowed")) {
      try policy.check(AccessControlTests.request("/topics/a", headers: [.origin: "https://evil.example"]))
    }
  }

  @Test func preflightAnswers204WithCORSHeadersOnlyForListedOrigins() {
    let listed = policy.preflightResponse(
      to: AccessControlTests.request("/topics/a", headers: [.origin: "https://app.example.com"]))
    #expect(listed.status == .noContent)
    #expect(listed.headers[.allow] == "GET, POST, OPTIONS")
    #expect(listed.headers[.accessControlAllowOrigin] == "https://app.example.com")
    #expect(listed.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
    let other = policy.preflightResponse(
      to: AccessControlTests.request("/topics/a", headers: [.origin: "https://evil.example"]))
    #expect(other.status == .noContent)
    #expect(other.headers[.allow] == "GET, POST, OPTIONS")
    #expect(other.headers[.accessControlAllowOrigin] == nil)
  }

  @Test func onlyApplicationJSONIsJSON() {
    for (contentType, expected) in [
      ("application/json", true), ("application/json; charset=utf-8", true), ("Application/JSON", true),
      ("text/plain", false), ("application/x-www-form-urlencoded", false), ("multipart/form-data", false),
      ("application/jsonx", false),
    ] {
      #expect(Gatekeeper.isJSON(contentType) == expected, "\(contentType)")
    }
    #expect(!Gatekeeper.isJSON(nil))
  }
}
