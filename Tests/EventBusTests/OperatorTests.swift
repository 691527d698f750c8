import Dispatch
import Testing

@testable import EventBus

/// `map`, `compactMap`, `filter` and `removeDuplicates` on the read side: each subscription to an operator is one
/// subscription to the output, with the same context, lifetime and guarantees.
@Suite struct OperatorTests {
  @Test func mapTransformsEveryEvent() {
    let output = Output<Int>()
    let log = Log<String>()
    let token = output.map { "#\($0)" }.subscribe { log.append($0) }
    output.send(1)
    output.send(2)
    #expect(log.elements == ["#1", "#2"])
    withExtendedLifetime(token) {}
  }

  @Test func compactMapDeliversOnlyNonNilResults() {
    let output = Output<String>()
    let log = Log<Int>()
    let token = output.compactMap { Int($0) }.subscribe { log.append($0) }
    for text in ["1", "x", "3", ""] { output.send(text) }
    #expect(log.elements == [1, 3])
    withExtendedLifetime(token) {}
  }

  @Test func filterDeliversOnlyIncludedEvents() {
    let output = Output<Int>()
    let recorder = Recorder<Int>()
    output.filter { $0.isMultiple(of: 2) }.subscribe(recorder)
    for value in 0..<7 { output.send(value) }
    #expect(recorder.events == [0, 2, 4, 6])
  }

  @Test func removeDuplicatesDropsConsecutiveRepeatsOnly() {
    let output = Output<Int>()
    let log = Log<Int>()
    let token = output.removeDuplicates().subscribe { log.append($0) }
    for value in [1, 1, 2, 2, 2, 1, 3, 3] { output.send(value) }
    #expect(log.elements == [1, 2, 1, 3])
    withExtendedLifetime(token) {}
  }

  @Test func operatorsCompose() {
    let output = Output<Int>()
    let log = Log<String>()
    let token = output.filter { $0 >= 0 }.map { "\($0 / 10)" }.removeDuplicates().subscribe { log.append($0) }
    for value in [1, 2, -5, 11, 12, 3] { output.send(value) }
    #expect(log.elements == ["0", "1", "0"])
    withExtendedLifetime(token) {}
  }

  @Test func everySubscriptionToRemoveDuplicatesRemembersItsOwnPreviousEvent() {
    let output = Output<Int>()
    let distinct = output.removeDuplicates()
    let early = Log<Int>()
    let earlyToken = distinct.subscribe { early.append($0) }
    output.send(1)
    let late = Log<Int>()
    let lateToken = distinct.subscribe { late.append($0) }
    let responder = Recorder<Int>()
    distinct.subscribe(responder)
    output.send(1)
    output.send(2)
    #expect(early.elements == [1, 2])
    #expect(late.elements == [1, 2], "the late subscription inherited another subscription's previous event")
    #expect(responder.events == [1, 2])
    withExtendedLifetime((earlyToken, lateToken)) {}
  }

  @Test func responderSubscribedThroughOperatorsIsStillHeldWeakly() async {
    struct Event: Sendable, Equatable {
      var value: Int
    }
    do {
      let output = Output<Event>()
      weak var weakResponder: Recorder<Int>?
      do {
        let responder = Recorder<Int>()
        weakResponder = responder
        output.filter { $0.value > 0 }.map(\.value).removeDuplicates().subscribe(responder)
        output.compactMap { $0.value > 1 ? $0.value : nil }.subscribe(responder) { _, _ in }
        output.send(Event(value: 1))
        #expect(responder.events == [1])
        #expect(output.subscriberCount == 2)
      }
      #expect(weakResponder == nil, "G6: an operator keeps the responder alive")
      #expect(output.subscriberCount == 0)
    }
    await expectNoLiveObjects(for: Event.self)
  }

  @Test func operatorsKeepTheSubscriptionsDeliveryContext() {
    let key = DispatchSpecificKey<Bool>()
    let queue = DispatchQueue(label: "operators")
    queue.setSpecific(key: key, value: true)
    let output = Output<Int>()
    let onQueue = Log<Bool>()
    let token = output.map { $0 + 1 }.filter { $0 > 1 }.subscribe(on: .queue(queue)) { _ in
      onQueue.append(DispatchQueue.getSpecific(key: key) == true)
    }
    output.send(1)
    output.send(2)
    queue.sync {}
    #expect(onQueue.elements == [true, true])
    withExtendedLifetime(token) {}
  }

  @Test func cancellingAnOperatorSubscriptionEndsTheUnderlyingOne() {
    let output = Output<Int>()
    let log = Log<Int>()
    let token = output.map { $0 }.removeDuplicates().subscribe { log.append($0) }
    #expect(output.subscriberCount == 1)
    token.cancel()
    #expect(output.subscriberCount == 0)
    output.send(1)
    #expect(log.elements.isEmpty)
  }
}
