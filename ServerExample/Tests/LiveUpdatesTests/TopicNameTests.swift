import LiveUpdates
import Testing

@Suite struct TopicNameTests {
  @Test func lowercaseLettersDigitsDashesAndUnderscoresUpToFortyMakeAName() {
    for text in ["a", "news", "t0", "order-updates", "eu_west_1", String(repeating: "z", count: 40)] {
      #expect(TopicName(text)?.rawValue == text)
    }
  }

  @Test func anythingElseIsRefusedRatherThanEscaped() {
    for text in ["", "News", "a b", "a\"b", "a;b", "é", "topic:x", "../x", String(repeating: "z", count: 41)] {
      #expect(TopicName(text) == nil)
    }
  }

  @Test func theChannelIsTheNamePrefixed() {
    #expect(TopicName("news")?.channel == "topic:news")
  }
}
