import Foundation

/// What a topic's feed fans out to the WebSocket clients of one process.
public enum TopicUpdate: Sendable, Hashable {
  /// A stored event, read once per process, with the frame every client receives.
  case event(id: Int, frame: String)
  /// The topic's LISTEN is in place (again), and this was the last id committed then: a client that stands before it
  /// reads what it lacks from the table.
  case checkpoint(lastID: Int)

  /// The frame of event `id` whose stored payload is `payload` (a ``TopicEvent``'s JSON): `{"id":7,"event":{…}}`.
  public static func frame(id: Int, payload: String) -> String {
    #"{"id":\#(id),"event":\#(payload)}"#
  }
}

/// The frames a server writes that are not events: each a JSON object with a `kind`.
public enum ControlFrame {
  /// Written once to each new client, once its subscription is in place: the events after `lastID` follow.
  public static func subscribed(to topic: TopicName, after lastID: Int) -> String {
    #"{"kind":"subscribed","last-id":\#(lastID),"topic":"\#(topic)"}"#
  }

  /// Written when the events a client asked for are no longer kept (or never existed): it resumes after `resumeAfter`,
  /// and should fetch the state it keeps again.
  public static func reset(_ topic: TopicName, resumeAfter: Int) -> String {
    #"{"kind":"reset","resume-after":\#(resumeAfter),"topic":"\#(topic)"}"#
  }

  /// Written before closing a client the server cannot serve now, such as when PostgreSQL cannot be reached. The
  /// client reconnects, to this process or another, with its last id.
  public static func unavailable(_ reason: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // A dictionary of strings always encodes.
    let data = try! encoder.encode(["kind": "unavailable", "reason": reason])
    return String(decoding: data, as: UTF8.self)
  }
}
