/// An upstream payload that could not be decoded into an event (G10).
///
/// A broadcaster does not deliver it, counts it in ``Broadcaster/decodeFailureCount`` and hands it to
/// ``Broadcaster/onDecodeFailure``; later payloads are decoded and delivered as usual. Decoding never traps on input
/// from outside.
///
/// ```swift
/// keyboard.onDecodeFailure = { failure in
///   logger.warning("dropped \(failure.name ?? "?"): \(failure.key ?? "-") \(failure.reason)")
/// }
/// ```
public struct DecodeFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why a payload could not be decoded.
  public enum Reason: Sendable, Hashable, CustomStringConvertible {
    /// A required key is absent.
    case missingKey
    /// A key has a value of the wrong type.
    case wrongType(expected: String, found: String)
    /// Any other reason, described in words: an error thrown by a custom decode step, a failed sequence.
    case other(String)

    /// The reason in words: `missing key`, `expected Double, found String`.
    public var description: String {
      switch self {
      case .missingKey: "missing key"
      case .wrongType(let expected, let found): "expected \(expected), found \(found)"
      case .other(let text): text
      }
    }
  }

  /// What carried the payload: the notification's name, or a description of the source. `nil` when the decoder did
  /// not know; a ``NotificationSource`` fills it in with the notification's name.
  public var name: String?
  /// The `userInfo` key (or field) at fault, when one is.
  public var key: String?
  /// Why decoding failed.
  public var reason: Reason

  /// Creates a failure report.
  ///
  /// - Parameters:
  ///   - name: What carried the payload, such as a notification name.
  ///   - key: The key at fault, if any.
  ///   - reason: Why decoding failed.
  public init(name: String? = nil, key: String? = nil, reason: Reason) {
    self.name = name
    self.key = key
    self.reason = reason
  }

  /// One line for a log: `cannot decode <name>, key <key>: <reason>`.
  public var description: String {
    var text = "cannot decode \(name ?? "payload")"
    if let key {
      text += ", key \(key)"
    }
    return text + ": \(reason)"
  }
}
