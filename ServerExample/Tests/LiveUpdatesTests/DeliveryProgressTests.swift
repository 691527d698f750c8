import LiveUpdates
import Synchronization
import Testing

@Suite struct DeliveryProgressTests {
  @Test func theLastIdIsThatOfTheLastEventOrOfTheFrameThatToldWhereToResume() throws {
    let topic = try #require(TopicName("news"))
    let progress = DeliveryProgress(resumingAfter: 3)
    #expect(progress.lastID == 3)
    progress.record(ControlFrame.subscribed(to: topic, after: 10))
    #expect(progress.lastID == 10)
    progress.record(TopicUpdate.frame(id: 11, payload: #"{"kind":"deleted","id":1}"#))
    #expect(progress.lastID == 11)
    progress.record(ControlFrame.unavailable("later"))
    #expect(progress.lastID == 11)
    progress.record(ControlFrame.reset(topic, resumeAfter: 40))
    #expect(progress.lastID == 40)
    #expect(DeliveryProgress().lastID == nil)
  }

  @Test func theGracePeriodIsAnOption() throws {
    #expect(try ServerOptions.parse(["--shutdown-grace-seconds", "4"]).limits.shutdownGrace == .seconds(4))
    #expect(ServerOptions.usage.contains("--shutdown-grace-seconds"))
  }
}

@Suite struct ClientRegistryTests {
  @Test func closeAllClosesEveryClientStillOpenOnce() async {
    let registry = ClientRegistry()
    let closed = Mutex<[Int]>([])
    let ids = (0..<3).map { index in registry.register { closed.withLock { $0.append(index) } } }
    registry.unregister(ids[1])
    #expect(registry.count == 2)
    await registry.closeAll()
    #expect(closed.withLock { $0.sorted() } == [0, 2])
  }
}
