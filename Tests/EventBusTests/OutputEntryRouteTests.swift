import Dispatch
import Testing

@testable import EventBus

/// The delivery loop calls an immediate subscriber's handler itself, chosen by the entry's route, and hands a queued
/// subscriber's event to its lane through the entry. A responder's handler is stored with the responder's type
/// forgotten. These tests mix every route in one list and check that each subscriber gets its own events, its own
/// responder and a payload intact, in order.
@Suite struct OutputEntryRouteTests {
  /// An event big enough to be passed by reference, with parts that are reference counted; the probe's release is
  /// what the tests watch.
  private struct Payload: Sendable {
    var sequence: Int
    var title: String
    var tags: [String]
    var probe: LifetimeProbe
  }

  /// A generic responder class, and a subclass of one, as responders of the same output.
  private class Screen<Tag: Sendable>: @unchecked Sendable {
    let seen = Log<String>()
  }

  private final class DetailScreen: Screen<Int>, @unchecked Sendable {}

  private func payload(_ sequence: Int, probe: LifetimeProbe) -> Payload {
    Payload(sequence: sequence, title: "event \(sequence)", tags: ["a", "b", String(sequence)], probe: probe)
  }

  @Test func everyRouteInOneListGetsItsEventsInOrderWithItsOwnResponder() {
    let output = Output<Payload>()
    let queue = DispatchQueue(label: "routes")
    let probe = LifetimeProbe()
    let generic = Screen<String>()
    let subclass = DetailScreen()
    let queued = Screen<Double>()
    let handlerLog = Log<Int>()
    let queuedHandlerLog = Log<Int>()

    output.subscribe(generic) { screen, event in
      #expect(event.probe === probe)
      screen.seen.append("generic \(event.sequence) \(event.title) \(event.tags.joined())")
    }
    let token = output.subscribe { event in handlerLog.append(event.sequence) }
    output.subscribe(subclass) { screen, event in screen.seen.append("subclass \(event.sequence)") }
    output.subscribe(queued, on: .queue(queue)) { screen, event in screen.seen.append("queued \(event.sequence)") }
    let queuedToken = output.subscribe(on: .queue(queue)) { event in queuedHandlerLog.append(event.sequence) }

    for sequence in 1...3 {
      output.send(payload(sequence, probe: probe))
    }
    queue.sync {}

    #expect(generic.seen.elements == ["generic 1 event 1 ab1", "generic 2 event 2 ab2", "generic 3 event 3 ab3"])
    #expect(subclass.seen.elements == ["subclass 1", "subclass 2", "subclass 3"])
    #expect(queued.seen.elements == ["queued 1", "queued 2", "queued 3"])
    #expect(handlerLog.elements == [1, 2, 3])
    #expect(queuedHandlerLog.elements == [1, 2, 3])
    withExtendedLifetime((token, queuedToken)) {}
  }

  @Test func theHandlerIsGivenTheVeryResponderThatSubscribed() {
    let output = Output<Int>()
    let screens = (0..<5).map { _ in Screen<Int>() }
    let identities = Log<ObjectIdentifier>()
    for screen in screens {
      output.subscribe(screen) { screen, _ in identities.append(ObjectIdentifier(screen)) }
    }
    output.send(1)
    #expect(identities.elements == screens.map(ObjectIdentifier.init))
  }

  @Test func anEventsPartsAreReleasedOnceEveryRouteIsDone() {
    let output = Output<Payload>()
    let queue = DispatchQueue(label: "routes")
    let released = Counter()
    let screen = Screen<Int>()
    let queued = Screen<Int>()
    let handlerSaw = Log<Int>()
    output.subscribe(screen) { screen, event in screen.seen.append("\(event.sequence) \(event.title)") }
    output.subscribe(queued, on: .queue(queue)) { screen, event in
      screen.seen.append("\(event.sequence) \(event.title)")
    }
    let token = output.subscribe { event in handlerSaw.append(event.tags.count) }

    for sequence in 1...4 {
      output.send(payload(sequence, probe: LifetimeProbe { released.increment() }))
    }
    queue.sync {}

    #expect(released.current == 4, "an event's payload was kept or released early")
    let seen = (1...4).map { "\($0) event \($0)" }
    #expect(screen.seen.elements == seen)
    #expect(queued.seen.elements == seen)
    #expect(handlerSaw.elements == [3, 3, 3, 3])
    withExtendedLifetime(token) {}
  }

  @Test func aDeadResponderBetweenLiveOnesOfOtherRoutesIsDroppedAndTheRestStillDelivered() {
    let output = Output<Int>()
    let first = Screen<Int>()
    var doomed: Screen<Int>? = Screen<Int>()
    let handlerLog = Log<Int>()
    output.subscribe(first) { screen, event in screen.seen.append("first \(event)") }
    output.subscribe(doomed!) { screen, event in screen.seen.append("doomed \(event)") }
    let token = output.subscribe { handlerLog.append($0) }
    #expect(output.subscriberCount == 3)

    doomed = nil
    output.send(1)
    output.send(2)

    #expect(first.seen.elements == ["first 1", "first 2"])
    #expect(handlerLog.elements == [1, 2])
    #expect(output.subscriberCount == 2)
    #expect(output.debugDescription.contains("responder Screen<Int>"), "\(output.debugDescription)")
    withExtendedLifetime(token) {}
  }

  @Test func aSubscriberOfEachRouteCancelledByAnEarlierHandlerMissesTheRestOfTheRound() {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "routes")
    let later = Screen<Int>()
    let queued = Screen<Int>()
    let handlerLog = Log<Int>()
    let subscriptions = Slot<[any EventCancellable]>()

    let first = output.subscribe { event in
      if event == 1 {
        for subscription in subscriptions.take() ?? [] { subscription.cancel() }
      }
    }
    let responderSubscription = output.subscribe(later) { screen, event in screen.seen.append("later \(event)") }
    let handlerToken = output.subscribe { handlerLog.append($0) }
    let queuedSubscription = output.subscribe(queued, on: .queue(queue)) { screen, event in
      screen.seen.append("queued \(event)")
    }
    subscriptions.put([responderSubscription, handlerToken, queuedSubscription])

    output.send(1)
    output.send(2)
    queue.sync {}

    #expect(later.seen.elements.isEmpty)
    #expect(handlerLog.elements.isEmpty)
    #expect(queued.seen.elements.isEmpty)
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(first) {}
  }
}
