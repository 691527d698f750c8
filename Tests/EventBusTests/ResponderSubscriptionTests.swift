import Testing

@testable import EventBus

/// Responder-owned handles can be collected like tokens, without changing who owns the subscription.
@Suite struct ResponderSubscriptionTests {
  @Test func handlesOfOneSubscriptionAreEqualAndHandlesOfTwoAreNot() {
    let output = Output<Int>()
    let responder = Recorder<Int>()
    let first = output.subscribe(responder)
    let second = output.subscribe(responder)
    let copy = first
    #expect(first == copy)
    #expect(first != second)
    #expect(Set([first, copy, second]).count == 2)
  }

  @Test func storeInSetCollectsHandlesThatCancelTogether() {
    let output = Output<Int>()
    let responder = Recorder<Int>()
    var handles = Set<ResponderSubscription>()
    output.subscribe(responder).store(in: &handles)
    output.subscribe(responder).store(in: &handles)
    output.send(1)
    #expect(responder.events == [1, 1])
    for handle in handles {
      handle.cancel()
    }
    output.send(2)
    #expect(responder.events == [1, 1])
    #expect(output.subscriberCount == 0)
  }

  @Test func storeInArrayKeepsOrderAndDoesNotExtendTheSubscription() {
    let output = Output<Int>()
    var handles: [ResponderSubscription] = []
    var responder: Recorder<Int>? = Recorder<Int>()
    if let responder {
      output.subscribe(responder).store(in: &handles)
    }
    output.send(1)
    #expect(responder?.events == [1])
    responder = nil
    output.send(2)
    #expect(handles.count == 1)
    #expect(output.subscriberCount == 0)
  }
}
