import Broadcasters
import Foundation

/// What a topic carries: the body of `POST /topics/:name`, the payload stored in the events table, and the `event` of
/// every frame a WebSocket client of the topic receives.
///
/// JSON with a `kind`: `{"kind":"posted","id":7,"text":"hello"}`, `{"kind":"edited","id":7,"text":"hi"}`,
/// `{"kind":"deleted","id":7}`.
public enum TopicEvent: Sendable, Hashable {
  /// A new item.
  case posted(id: Int, text: String)
  /// An item's new text.
  case edited(id: Int, text: String)
  /// An item removed.
  case deleted(id: Int)

  /// The item the event is about.
  public var id: Int {
    switch self {
    case .posted(let id, _), .edited(let id, _), .deleted(let id): id
    }
  }
}

extension TopicEvent: Codable {
  private enum CodingKeys: String, CodingKey {
    case kind, id, text
  }

  private enum Kind: String, Codable {
    case posted, edited, deleted
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let kindText = try container.decode(String.self, forKey: .kind)
    guard let kind = Kind(rawValue: kindText) else {
      throw DecodeFailure(key: "kind", reason: .other("unknown kind \"\(kindText)\""))
    }
    let id = try container.decode(Int.self, forKey: .id)
    switch kind {
    case .posted: self = .posted(id: id, text: try container.decode(String.self, forKey: .text))
    case .edited: self = .edited(id: id, text: try container.decode(String.self, forKey: .text))
    case .deleted: self = .deleted(id: id)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .posted(let id, let text):
      try container.encode(Kind.posted, forKey: .kind)
      try container.encode(id, forKey: .id)
      try container.encode(text, forKey: .text)
    case .edited(let id, let text):
      try container.encode(Kind.edited, forKey: .kind)
      try container.encode(id, forKey: .id)
      try container.encode(text, forKey: .text)
    case .deleted(let id):
      try container.encode(Kind.deleted, forKey: .kind)
      try container.encode(id, forKey: .id)
    }
  }
}

extension TopicEvent {
  /// The longest payload accepted: the server's own limit (NOTIFY carries the event's id, never its payload).
  public static let maximumPayloadSize = 4000

  /// Decodes an event from its JSON, reporting what is wrong as a ``DecodeFailure`` (key and reason) for the log.
  ///
  /// - Throws: `DecodeFailure`, never anything else.
  public init(json: some Collection<UInt8>) throws(DecodeFailure) {
    guard json.count <= Self.maximumPayloadSize else {
      throw DecodeFailure(reason: .other("payload of \(json.count) bytes, more than \(Self.maximumPayloadSize)"))
    }
    do {
      self = try JSONDecoder().decode(TopicEvent.self, from: Data(json))
    } catch let failure as DecodeFailure {
      throw failure
    } catch let error as DecodingError {
      throw Self.failure(describing: error)
    } catch {
      throw DecodeFailure(reason: .other("\(error)"))
    }
  }

  /// The event's JSON, keys in a fixed order.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding an Int and Strings into JSON cannot fail.
    let data = try! encoder.encode(self)
    return String(decoding: data, as: UTF8.self)
  }

  private static func failure(describing error: DecodingError) -> DecodeFailure {
    switch error {
    case .keyNotFound(let key, _):
      DecodeFailure(key: key.stringValue, reason: .missingKey)
    case .typeMismatch(let type, let context):
      DecodeFailure(
        key: context.codingPath.last?.stringValue, reason: .wrongType(expected: "\(type)", found: "another type"))
    case .valueNotFound(let type, let context):
      DecodeFailure(key: context.codingPath.last?.stringValue, reason: .wrongType(expected: "\(type)", found: "null"))
    case .dataCorrupted(let context):
      DecodeFailure(
        key: context.codingPath.last?.stringValue,
        reason: .other(context.codingPath.isEmpty ? "not JSON" : context.debugDescription))
    @unknown default:
      DecodeFailure(reason: .other("\(error)"))
    }
  }
}
