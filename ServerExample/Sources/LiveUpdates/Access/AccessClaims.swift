import JWTKit

/// What a token lets its holder do: the claims of an HS256 JSON Web Token signed with the server's key.
///
/// ```json
/// {"sub": "dashboard-7", "exp": 1767225600, "subscribe": ["prices.*", "news"], "publish": ["news"], "operator": false}
/// ```
///
/// `subscribe` and `publish` list topic patterns (``TopicPattern``); `operator` opens `/stats` and `/metrics`. A token
/// without `exp` is refused: every token ends.
public struct AccessClaims: JWTPayload, Sendable, Equatable {
  /// Who holds the token; connections and publishing are limited per subject.
  public var sub: SubjectClaim
  /// When the token ends: requests are refused after it, and open sockets are closed at it.
  public var exp: ExpirationClaim
  /// The topics the holder may subscribe to.
  public var subscribe: [String]
  /// The topics the holder may publish to.
  public var publish: [String]
  /// Whether the holder may read the process's counters.
  public var `operator`: Bool

  public init(
    subject: String, expiration: ExpirationClaim, subscribe: [String] = [], publish: [String] = [],
    operator: Bool = false
  ) {
    self.sub = SubjectClaim(value: subject)
    self.exp = expiration
    self.subscribe = subscribe
    self.publish = publish
    self.operator = `operator`
  }

  private enum CodingKeys: String, CodingKey {
    case sub, exp, subscribe, publish, `operator`
  }

  // Lists and the operator flag may be left out; subject and expiry may not.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sub = try container.decode(SubjectClaim.self, forKey: .sub)
    exp = try container.decode(ExpirationClaim.self, forKey: .exp)
    subscribe = try container.decodeIfPresent([String].self, forKey: .subscribe) ?? []
    publish = try container.decodeIfPresent([String].self, forKey: .publish) ?? []
    `operator` = try container.decodeIfPresent(Bool.self, forKey: .operator) ?? false
  }

  public func verify(using algorithm: some JWTAlgorithm) async throws {
    try exp.verifyNotExpired()
  }

  /// Whether the claims let the holder subscribe to `topic`.
  public func maySubscribe(to topic: TopicName) -> Bool {
    subscribe.contains { TopicPattern($0).matches(topic) }
  }

  /// Whether the claims let the holder publish to `topic`.
  public func mayPublish(to topic: TopicName) -> Bool {
    publish.contains { TopicPattern($0).matches(topic) }
  }
}

/// A topic pattern in a token's claims: a name, where `*` stands for any run of characters (none included).
///
/// `news` matches only `news`; `prices.*` matches `prices.eur` and `prices.usd.spot` but not `prices`; `*` matches
/// every topic.
public struct TopicPattern: Sendable, Hashable {
  /// The pattern as written in the claims.
  public let text: String

  public init(_ text: String) {
    self.text = text
  }

  /// Whether `topic` matches the pattern.
  public func matches(_ topic: TopicName) -> Bool {
    Self.match(Array(text.utf8)[...], Array(topic.rawValue.utf8)[...])
  }

  // Greedy glob matching with backtracking to the last `*`: linear in practice, quadratic at worst on 40 bytes.
  private static func match(_ pattern: ArraySlice<UInt8>, _ name: ArraySlice<UInt8>) -> Bool {
    var patternIndex = pattern.startIndex
    var nameIndex = name.startIndex
    var lastStar: (pattern: Int, name: Int)?
    while nameIndex < name.endIndex {
      if patternIndex < pattern.endIndex, pattern[patternIndex] == UInt8(ascii: "*") {
        lastStar = (patternIndex, nameIndex)
        patternIndex += 1
      } else if patternIndex < pattern.endIndex, pattern[patternIndex] == name[nameIndex] {
        patternIndex += 1
        nameIndex += 1
      } else if let star = lastStar {
        patternIndex = star.pattern + 1
        nameIndex = star.name + 1
        lastStar = (star.pattern, star.name + 1)
      } else {
        return false
      }
    }
    while patternIndex < pattern.endIndex, pattern[patternIndex] == UInt8(ascii: "*") {
      patternIndex += 1
    }
    return patternIndex == pattern.endIndex
  }
}
