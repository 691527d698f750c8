import LiveUpdates
import Testing

@Suite struct TopicSubscriberTests {
  @Test func updatesComeOutInTheOrderTheyWereQueued() async {
    let subscriber = TopicSubscriber()
    for id in 1...100 {
      subscriber.handle(event: .event(id: id, frame: "\(id)"))
    }
    subscriber.handle(event: .checkpoint(lastID: 100))
    subscriber.finish()
    var updates: [TopicUpdate] = []
    for await update in subscriber.updates { updates.append(update) }
    #expect(updates == (1...100).map { .event(id: $0, frame: "\($0)") } + [.checkpoint(lastID: 100)])
    #expect(!subscriber.isOverflowed)
  }

  @Test func aFullQueueEndsTheUpdatesAfterThoseQueuedAndMarksTheClientSlow() async {
    let subscriber = TopicSubscriber()
    for id in 0..<(TopicSubscriber.queueLimit + 10) {
      subscriber.handle(event: .event(id: id, frame: ""))
    }
    var count = 0
    for await _ in subscriber.updates { count += 1 }
    #expect(count == TopicSubscriber.queueLimit)
    #expect(subscriber.isOverflowed)
  }
}
