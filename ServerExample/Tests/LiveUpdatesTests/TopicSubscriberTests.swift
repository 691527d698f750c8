import LiveUpdates
import Testing

@Suite struct TopicSubscriberTests {
  @Test func framesComeOutInTheOrderTheyWereQueued() async {
    let subscriber = TopicSubscriber()
    for id in 1...100 {
      subscriber.handle(event: .event(.deleted(id: id), frame: "\(id)"))
    }
    subscriber.handle(event: .eventsMissed)
    subscriber.finish()
    var frames: [String] = []
    for await frame in subscriber.frames { frames.append(frame) }
    #expect(frames == (1...100).map { "\($0)" } + [#"{"kind":"events-missed"}"#])
    #expect(!subscriber.isOverflowed)
  }

  @Test func aFullQueueEndsTheFramesAfterThoseQueuedAndMarksTheClientSlow() async {
    let subscriber = TopicSubscriber()
    for id in 0..<(TopicSubscriber.queueLimit + 10) {
      subscriber.queue("\(id)")
    }
    var count = 0
    for await _ in subscriber.frames { count += 1 }
    #expect(count == TopicSubscriber.queueLimit)
    #expect(subscriber.isOverflowed)
  }
}
