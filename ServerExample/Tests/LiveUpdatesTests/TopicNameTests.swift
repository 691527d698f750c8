import LiveUpdates
import Testing

@Suite struct TopicNameTests {
  @Test func lowercaseLettersDigitsDashesUnderscoresAndDotsUpToFortyMakeAName() {
    for text in ["a", "news", "t0", "order-updates", "eu_west_1", "prices.eur", String(repeating: "z", count: 40)] {
      #expect(TopicName(text)?.rawValue == text)
    }
  }

  @Test func anythingElseIsRefusedRatherThanEscaped() {
    for text in [
      "", "News", "a b", "a\"b", "a;b", "é", "topic:x", "../x", "prices.*", String(repeating: "z", count: 41),
    ] {
      #expect(TopicName(text) == nil)
    }
  }

  @Test func theChannelIsTheNamePrefixed() {
    #expect(TopicName("news")?.channel == "topic:news")
  }
}
