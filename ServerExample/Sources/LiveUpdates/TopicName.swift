/// A topic's name, as it appears in `/topics/:name`: 1 to 40 lowercase ASCII letters, digits, `-`, `_` and `.`
/// (`prices.eur`, so that token claims can name a family of topics: `prices.*`).
///
/// The name becomes part of a PostgreSQL channel name, which `LISTEN` quotes as an identifier, so anything else is
/// refused rather than escaped.
public struct TopicName: Hashable, Sendable, CustomStringConvertible {
  /// The name itself.
  public let rawValue: String

  /// Creates a name, or `nil` if `text` is not a valid topic name.
  public init?(_ text: some StringProtocol) {
    guard (1...40).contains(text.utf8.count),
      text.utf8.allSatisfy({ byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
      })
    else { return nil }
    rawValue = String(text)
  }

  /// The PostgreSQL channel the topic's events are NOTIFY'd on: `topic:<name>`.
  public var channel: String { "topic:\(rawValue)" }

  public var description: String { rawValue }
}
