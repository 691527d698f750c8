import Broadcasters
import Foundation

/// What a topic's broadcaster fans out to the WebSocket clients of one process: an event, decoded once per process
/// and encoded once per process, or the news that events were missed.
public enum TopicUpdate: Sendable, Hashable {
  /// An event NOTIFY'd on the topic, with the text frame every client receives.
  case event(TopicEvent, frame: String)
  /// The process's LISTEN connection for the topic was lost and is back: events NOTIFY'd in between never arrived
  /// (NOTIFY keeps nothing for a listener that was away). Clients that keep state should fetch it again.
  case eventsMissed

  /// Decodes a NOTIFY payload, once, into the update every client of the topic receives.
  ///
  /// - Throws: `DecodeFailure` for a payload that is not a ``TopicEvent``.
  public init(payload: String) throws(DecodeFailure) {
    let event = try TopicEvent(json: payload.utf8)
    self = .event(event, frame: event.json)
  }

  /// The text frame written to each client.
  public var frame: String {
    switch self {
    case .event(_, let frame): frame
    case .eventsMissed: ControlFrame.eventsMissed
    }
  }
}

/// The frames a server writes that are not events: each a JSON object with a `kind` no event has.
public enum ControlFrame {
  /// Written once to each new client, after its subscription is registered.
  public static func subscribed(to topic: TopicName) -> String {
    #"{"kind":"subscribed","topic":"\#(topic)"}"#
  }

  /// Written when the process's LISTEN connection for the topic was lost and is back.
  public static let eventsMissed = #"{"kind":"events-missed"}"#

  /// Written before closing a client the server cannot serve, such as when PostgreSQL refuses another connection.
  public static func unavailable(_ reason: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // A dictionary of strings always encodes.
    let data = try! encoder.encode(["kind": "unavailable", "reason": reason])
    return String(decoding: data, as: UTF8.self)
  }
}
