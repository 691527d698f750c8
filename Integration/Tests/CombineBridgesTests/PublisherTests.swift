import CombineBridges
import Dispatch
import EventBus
import OpenCombine
import Testing

/// `EventStream.publisher`, compiled from the same file as on Apple platforms, against OpenCombine.
@Suite struct PublisherTests {
  @Test func aSinkReceivesEveryEventInOrder() {
    let output = Output<Int>()
    let log = Log<Int>()
    let cancellable = output.publisher.sink { log.append($0) }
    for value in 1...5 { output.send(value) }
    #expect(log.elements == [1, 2, 3, 4, 5])
    withExtendedLifetime(cancellable) {}
  }

  @Test func theStreamIsSubscribedOnTheFirstRequestNotBefore() {
    let output = Output<Int>()
    let subscriber = ManualSubscriber<Int>()
    output.publisher.subscribe(subscriber)
    #expect(subscriber.isSubscribed)
    #expect(output.subscriberCount == 0)
    output.send(1)

    subscriber.request(.unlimited)
    #expect(output.subscriberCount == 1)
    output.send(2)
    #expect(subscriber.received.elements == [2])
    subscriber.cancel()
  }

  @Test func eventsBeyondTheDemandAreNotDeliveredAndNotKept() {
    let output = Output<Int>()
    let subscriber = ManualSubscriber<Int>()
    output.publisher.subscribe(subscriber)
    subscriber.request(.max(2))
    for value in 1...4 { output.send(value) }
    #expect(subscriber.received.elements == [1, 2])

    subscriber.request(.max(1))
    #expect(subscriber.received.elements == [1, 2])  // 3 and 4 were dropped, not buffered
    output.send(5)
    output.send(6)
    #expect(subscriber.received.elements == [1, 2, 5])
    subscriber.cancel()
  }

  @Test func demandReturnedFromReceiveAddsUp() {
    let output = Output<Int>()
    let subscriber = ManualSubscriber<Int>()
    subscriber.requestOnEachValue(.max(1))
    output.publisher.subscribe(subscriber)
    subscriber.request(.max(1))
    for value in 1...5 { output.send(value) }
    #expect(subscriber.received.elements == [1, 2, 3, 4, 5])
    subscriber.cancel()
  }

  @Test func cancellingEndsTheStreamSubscription() {
    let output = Output<Int>()
    let log = Log<Int>()
    let cancellable = output.publisher.sink { log.append($0) }
    output.send(1)
    #expect(output.subscriberCount == 1)

    cancellable.cancel()
    #expect(output.subscriberCount == 0)
    output.send(2)
    #expect(log.elements == [1])
  }

  @Test func releasingTheCancellableEndsTheStreamSubscription() {
    let output = Output<Int>()
    let log = Log<Int>()
    do {
      let cancellable = output.publisher.sink { log.append($0) }
      output.send(1)
      withExtendedLifetime(cancellable) {}
    }
    #expect(output.subscriberCount == 0)
    output.send(2)
    #expect(log.elements == [1])
  }

  @Test func cancellingFromInsideReceiveStopsAtOnce() {
    let output = Output<Int>()
    let subscriber = ManualSubscriber<Int>()
    subscriber.onEachValue { [subscriber] value in
      if value == 2 { subscriber.cancel() }
    }
    output.publisher.subscribe(subscriber)
    subscriber.request(.unlimited)
    for value in 1...4 { output.send(value) }
    #expect(subscriber.received.elements == [1, 2])
    #expect(output.subscriberCount == 0)
  }

  @Test func aSendFromInsideReceiveIsDeliveredAfterTheCurrentEvent() {
    let output = Output<String>()
    let first = ManualSubscriber<String>()
    let second = Log<String>()
    first.onEachValue { [weak output] event in
      if event == "ping" { output?.send("pong") }
    }
    output.publisher.subscribe(first)
    first.request(.unlimited)
    let cancellable = output.publisher.sink { second.append($0) }

    output.send("ping")
    #expect(first.received.elements == ["ping", "pong"])
    #expect(second.elements == ["ping", "pong"])
    first.cancel()
    withExtendedLifetime(cancellable) {}
  }

  @Test func aReplayingOutputHandsItsWindowToANewSubscriber() {
    let session = Output<String>(replay: 1)
    session.send("signed out")
    session.send("signed in")
    let log = Log<String>()
    let cancellable = session.publisher.sink { log.append($0) }
    session.send("signed out")
    #expect(log.elements == ["signed in", "signed out"])
    withExtendedLifetime(cancellable) {}
  }

  @Test func operatorsOfBothLibrariesCompose() {
    let output = Output<Int>()
    let log = Log<String>()
    let cancellable = output.filter { $0 > 1 }.publisher
      .map { "#\($0)" }
      .sink { log.append($0) }
    for value in 1...3 { output.send(value) }
    #expect(log.elements == ["#2", "#3"])
    withExtendedLifetime(cancellable) {}
  }

  @Test func concurrentSendersReachTheSinkOneAtATimeWithNothingLost() {
    let output = Output<Int>()
    let log = Log<Int>()
    let cancellable = output.publisher.sink { log.append($0) }
    let threads = 4
    let perThread = 2_000
    withWatchdog {
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        for value in 0..<perThread { output.send(thread * perThread + value) }
      }
    }
    let received = log.elements
    #expect(received.count == threads * perThread)
    #expect(Set(received).count == threads * perThread)
    for thread in 0..<threads {
      let own = received.filter { $0 / perThread == thread }
      #expect(own == own.sorted(), "thread \(thread)'s events arrived out of order")
    }
    withExtendedLifetime(cancellable) {}
  }

  @Test func cancelRacingSendsNeverDeliversAfterItReturns() {
    for _ in 0..<200 {
      let output = Output<Int>()
      let log = Log<Int>()
      let cancellable = SharedCancellable(output.publisher.sink { log.append($0) })
      withWatchdog {
        DispatchQueue.concurrentPerform(iterations: 2) { index in
          if index == 0 {
            for value in 0..<100 { output.send(value) }
          } else {
            cancellable.cancel()
            output.send(-1)  // sent after cancel returned, from the cancelling thread
          }
        }
      }
      #expect(!log.elements.contains(-1))
      #expect(output.subscriberCount == 0)
    }
  }
}

/// `EventSubscription` with Combine's cancellables.
@Suite struct EventSubscriptionCombineTests {
  @Test func aTokenStoredWithCombineCancellablesLivesAsLongAsTheSet() {
    let output = Output<Int>()
    let log = Log<Int>()
    var cancellables = Set<AnyCancellable>()
    output.subscribe { log.append($0) }.store(in: &cancellables)
    output.send(1)
    #expect(output.subscriberCount == 1)

    cancellables.removeAll()
    #expect(output.subscriberCount == 0)
    output.send(2)
    #expect(log.elements == [1])
  }

  @Test func aTokenIsACombineCancellable() {
    let output = Output<Int>()
    let token = output.subscribe { _ in }
    let cancellables: [any Cancellable] = [token]
    for cancellable in cancellables { cancellable.cancel() }
    #expect(output.subscriberCount == 0)

    let other = output.subscribe { _ in }
    let erased = AnyCancellable(other)
    erased.cancel()
    #expect(output.subscriberCount == 0)
  }
}

/// An `AnyCancellable` handed to another thread, which cancels it.
final class SharedCancellable {
  private let cancellable: AnyCancellable

  init(_ cancellable: AnyCancellable) {
    self.cancellable = cancellable
  }

  func cancel() {
    cancellable.cancel()
  }
}

// `cancellable` is immutable, and only one thread at a time calls `cancel()`: the racing thread, then the test's
// thread when it releases the box after joining. (OpenCombine's `AnyCancellable` takes no lock of its own.)
extension SharedCancellable: @unchecked Sendable {}
