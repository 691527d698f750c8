import Broadcasters
import Foundation
import LiveUpdates
import Testing

@Suite struct TopicEventTests {
  @Test func everyKindSurvivesARoundTripThroughItsJSON() throws {
    let events: [TopicEvent] = [.posted(id: 1, text: "héllo \"world\""), .edited(id: 2, text: ""), .deleted(id: -3)]
    for event in events {
      #expect(try TopicEvent(json: event.json.utf8) == event)
    }
  }

  @Test func theJSONHasSortedKeysSoTheIDComesFirst() {
    #expect(TopicEvent.posted(id: 7, text: "a/b").json == #"{"id":7,"kind":"posted","text":"a/b"}"#)
    #expect(TopicEvent.deleted(id: 7).json == #"{"id":7,"kind":"deleted"}"#)
  }

  @Test func aPayloadThatIsNotAnEventIsAFailureThatSaysWhy() {
    let cases: [(String, DecodeFailure)] = [
      ("not json", DecodeFailure(reason: .other("not JSON"))),
      (#"{"id":1,"text":"x"}"#, DecodeFailure(key: "kind", reason: .missingKey)),
      (#"{"kind":"posted","text":"x"}"#, DecodeFailure(key: "id", reason: .missingKey)),
      (#"{"kind":"posted","id":1}"#, DecodeFailure(key: "text", reason: .missingKey)),
      (
        #"{"kind":"posted","id":"seven","text":"x"}"#,
        DecodeFailure(key: "id", reason: .wrongType(expected: "Int", found: "another type"))
      ),
      (
        #"{"kind":"posted","id":null,"text":"x"}"#,
        DecodeFailure(key: "id", reason: .wrongType(expected: "Int", found: "null"))
      ),
      (#"{"kind":"shouted","id":1}"#, DecodeFailure(key: "kind", reason: .other(#"unknown kind "shouted""#))),
    ]
    for (payload, expected) in cases {
      #expect(throws: expected) { try TopicEvent(json: payload.utf8) }
    }
  }

  @Test func aPayloadLongerThanTheLimitIsRefusedBeforeDecoding() {
    let text = String(repeating: "x", count: TopicEvent.maximumPayloadSize)
    let payload = TopicEvent.posted(id: 1, text: text).json
    #expect(throws: DecodeFailure(reason: .other("payload of \(payload.utf8.count) bytes, more than 4000"))) {
      try TopicEvent(json: payload.utf8)
    }
  }

  @Test func anEventFrameCarriesItsIdThenTheStoredPayload() throws {
    struct Frame: Decodable, Equatable {
      var id: Int
      var event: TopicEvent
    }
    let payload = TopicEvent.edited(id: 4, text: "hi").json
    let frame = TopicUpdate.frame(id: 17, payload: payload)
    #expect(frame.hasPrefix(#"{"id":17,"#))
    #expect(
      try JSONDecoder().decode(Frame.self, from: Data(frame.utf8)) == Frame(id: 17, event: .edited(id: 4, text: "hi")))
  }

  @Test func controlFramesAreJSONWhoseKindNoEventHas() throws {
    struct Control: Decodable, Equatable {
      var kind: String
      var topic: String?
      var reason: String?
      var lastID: Int?
      var resumeAfter: Int?

      enum CodingKeys: String, CodingKey {
        case kind, topic, reason
        case lastID = "last-id"
        case resumeAfter = "resume-after"
      }
    }
    let decode = { (text: String) in try JSONDecoder().decode(Control.self, from: Data(text.utf8)) }
    #expect(
      try decode(ControlFrame.subscribed(to: TopicName("news")!, after: 12))
        == Control(kind: "subscribed", topic: "news", lastID: 12))
    #expect(
      try decode(ControlFrame.reset(TopicName("news")!, resumeAfter: 40))
        == Control(kind: "reset", topic: "news", resumeAfter: 40))
    let reason = "sorry, \"too many\"\nclients \\ already"
    #expect(try decode(ControlFrame.unavailable(reason)) == Control(kind: "unavailable", reason: reason))
  }
}
