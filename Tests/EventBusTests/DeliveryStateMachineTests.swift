import Testing

@testable import EventBus

/// Every transition of the delivery state machine, one at a time, including interleavings too narrow to hit
/// reliably with threads.
@Suite struct DeliveryStateMachineTests {
  private typealias Harness = DeliveryHarness
  private let me = ThreadIdentity.current
  private let other = parkedThreadIdentity

  @Test func aSendOnAnIdleOutputMakesTheSenderTheDeliverer() {
    var (harness, _) = Harness.subscribed("a", "b")
    let step = harness.send(1, from: me)
    #expect(step.delivery?.event == 1)
    #expect(step.delivery.map { Harness.names($0.entries) } == ["a", "b"])
    #expect(harness.list.isDelivering)
    #expect(harness.machine.pendingCount == 0)
  }

  @Test func aSendDuringARoundIsQueuedForTheDeliverer() {
    var (harness, _) = Harness.subscribed("a")
    _ = harness.send(1, from: me)
    #expect(harness.send(2, from: other).isIdle)
    #expect(harness.send(3, from: me).isIdle)
    #expect(harness.machine.pendingCount == 2)
  }

  @Test func theEndOfARoundHandsOverQueuedEventsInOrderThenFreesTheDelivery() {
    var (harness, _) = Harness.subscribed("a")
    #expect(harness.send(1, from: me).delivery != nil)
    _ = harness.send(2, from: other)
    _ = harness.send(3, from: other)
    var delivered: [Int] = []
    var step = harness.finishRound(by: me)
    while let delivery = step.delivery {
      #expect(!step.change.isChanged)
      delivered.append(delivery.event)
      step = harness.finishRound(by: me)
    }
    #expect(delivered == [2, 3])
    #expect(step.isIdle)
    #expect(!harness.list.isDelivering)
    #expect(harness.machine.pendingCount == 0)
  }

  @Test func aSubscriberAddedDuringARoundIsInTheNextRoundOnly() {
    var (harness, _) = Harness.subscribed("a")
    let first = harness.send(1, from: me)
    _ = harness.subscribe(Harness.Subscriber("b"), from: me)
    _ = harness.send(2, from: me)
    #expect(first.delivery.map { Harness.names($0.entries) } == ["a"])
    let second = harness.finishRound(by: me)
    #expect(second.delivery.map { Harness.names($0.entries) } == ["a", "b"])
  }

  @Test func theSendThatPushesAnEventOutOfTheReplayWindowHandsItOutToBeReleased() {
    var (harness, _) = Harness.subscribed("a", replay: 2)
    var dropped: [Int?] = []
    for event in 1...3 {
      let step = harness.send(event, from: me)
      dropped.append(step.droppedEvent)
      #expect(harness.finishRound(by: me).isIdle)
    }
    #expect(dropped == [nil, nil, 1])
  }

  @Test func subscribingOnAnIdleOutputWithHistoryHandsTheReplayOverAtOnce() {
    var (harness, _) = Harness.subscribed("a", replay: 2)
    for event in 1...3 {
      _ = harness.send(event, from: me)
      _ = harness.finishRound(by: me)
    }
    let late = Harness.Subscriber("late")
    let step = harness.subscribe(late, from: me)
    #expect(step.replay?.events == [2, 3])
    #expect(step.replay?.entry === late)
    #expect(step.change.isChanged, "the new subscriber is reported")
    #expect(harness.list.isDelivering, "the subscriber now holds the delivery while it replays")
    #expect(harness.finishReplay(to: late, by: me).isIdle)
    #expect(!harness.list.isDelivering)
  }

  @Test func subscribingDuringARoundQueuesTheReplayAheadOfQueuedEvents() {
    var (harness, _) = Harness.subscribed("a", replay: 1)
    #expect(harness.send(1, from: me).delivery != nil)
    _ = harness.send(2, from: other)
    let late = Harness.Subscriber("late")
    #expect(harness.subscribe(late, from: other).isIdle, "another thread holds the delivery")
    let replay = harness.finishRound(by: me)
    #expect(replay.replay?.events == [1])
    #expect(replay.replay?.entry === late)
    let next = harness.finishReplay(to: late, by: me)
    #expect(next.delivery?.event == 2)
    #expect(next.delivery.map { Harness.names($0.entries) } == ["a", "late"])
  }

  @Test func aReplayWhoseSubscriberWasCancelledBeforeItsTurnIsHandedOutToBeReleased() {
    var (harness, _) = Harness.subscribed("a", replay: 1)
    #expect(harness.send(1, from: me).delivery != nil)
    let late = Harness.Subscriber("late")
    _ = harness.subscribe(late, from: other)
    _ = harness.list.cancel(late, from: other)
    let next = harness.finishRound(by: me)
    #expect(next.isIdle)
    #expect(next.droppedReplays?.map { $0.entry === late } == [true])
  }

  @Test func aDeadResponderFoundDuringARoundIsRemovedAndReported() {
    var (harness, subscribers) = Harness.subscribed("a", "b", "c")
    #expect(harness.send(1, from: me).delivery != nil)
    subscribers[1].markDead(DeliveryHolder(thread: me))
    let next = harness.finishRound(deadFound: true, by: me)
    #expect(next.isIdle)
    #expect(next.change.isChanged)
    #expect(subscribers[1].isRemoved)
    #expect(harness.list.count == 2)
    #expect(harness.currentNames == ["a", "-", "c"])
  }

  @Test func aDeadResponderFoundDuringItsReplayIsRemovedAndKeptByTheStep() {
    var (harness, _) = Harness.subscribed("a", replay: 1)
    _ = harness.send(1, from: me)
    _ = harness.finishRound(by: me)
    weak var weakLate: Harness.Subscriber?
    var step: Harness.Step
    do {
      let late = Harness.Subscriber("late")
      weakLate = late
      _ = harness.subscribe(late, from: me)
      late.markDead(DeliveryHolder(thread: me))
      step = harness.finishReplay(to: late, deadFound: true, by: me)
      #expect(late.isRemoved)
    }
    #expect(harness.list.count == 1)
    #expect(harness.roundNames == ["a", "-"], "the removal is installed before the delivery is let go")
    #expect(!harness.list.isDelivering)
    #expect(step.change.isChanged)
    #expect(weakLate != nil, "the step is the removed entry's last owner")
    step = Harness.Step(.idle)
    #expect(weakLate == nil)
  }

  @Test func aSendOnTheLockedPathWhileALockFreeSendDeliversIsQueuedForIt() {
    var (harness, _) = Harness.subscribed("a")
    #expect(harness.list.latch.claims(for: me))
    #expect(harness.send(2, from: other).isIdle)
    #expect(!harness.list.latch.releases(by: me), "the queued event keeps the holder from letting go")
    #expect(harness.finishRound(by: me).delivery?.event == 2)
  }

  @Test func aCancelFromAnotherThreadDuringALockFreeRoundReachesTheNextRoundOnly() {
    var (harness, subscribers) = Harness.subscribed("a", "b")
    #expect(harness.list.latch.claims(for: me))
    _ = harness.list.cancel(subscribers[0], from: other)
    _ = harness.send(2, from: other)
    #expect(harness.roundNames == ["a", "b"])
    let isSkipped = subscribers[0].isSkipped(DeliveryHolder(thread: me))
    #expect(!isSkipped)
    let next = harness.finishRound(by: me)
    #expect(next.delivery?.event == 2)
    #expect(next.delivery.map { Harness.names($0.entries) } == ["-", "b"])
    #expect(harness.list.isDelivering, "the holder keeps the delivery for the queued event")
    #expect(harness.finishRound(by: me).isIdle)
    #expect(!harness.list.isDelivering)
  }
}
