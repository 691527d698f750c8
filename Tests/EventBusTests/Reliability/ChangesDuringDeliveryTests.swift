import EventBusTestSupport
import Testing

@testable import EventBus

/// G5: among 10 subscribers, #3 adds X, cancels #7 and cancels itself while handling E. X misses E
/// and gets the next event, #7 is skipped, nobody else is.
@Suite struct ChangesDuringDeliveryTests {
  /// Ten subscribers and X, each recording what it receives; `trigger` is the event during which #3 makes its changes.
  private final class Scene: Sendable {
    let output: Output<Int>
    let logs = (0..<10).map { _ in Log<Int>() }
    let xLog = Log<Int>()
    let subscriptions = LockedState<[any EventCancellable]>([])
    let responders = LockedState<[Recorder<Int>]>([])
    let xSubscription = Slot<any EventCancellable>()

    init(output: Output<Int>, trigger: Int, responderOwned: Bool) {
      self.output = output
      for index in 0..<10 {
        let handler: @Sendable (Int) -> Void = { [unowned self] event in
          self.logs[index].append(event)
          if index == 3, event == trigger { self.changeMembership(responderOwned: responderOwned) }
        }
        let subscription: any EventCancellable
        if responderOwned {
          let responder = Recorder<Int>()
          responders.withLock { $0.append(responder) }
          subscription = output.subscribe(responder) { _, event in handler(event) }
        } else {
          subscription = output.subscribe(handler)
        }
        subscriptions.withLock { $0.append(subscription) }
      }
    }

    private func changeMembership(responderOwned: Bool) {
      let xLog = xLog
      if responderOwned {
        let x = Recorder<Int>()
        responders.withLock { $0.append(x) }
        xSubscription.put(output.subscribe(x) { _, event in xLog.append(event) })
      } else {
        xSubscription.put(output.subscribe { xLog.append($0) })
      }
      let (seventh, third) = subscriptions.withLock { ($0[7], $0[3]) }
      seventh.cancel()
      third.cancel()
    }
  }

  @Test(arguments: [false, true])
  func subscriberThreeAddsXAndCancelsSevenAndItselfDuringAnEvent(responderOwned: Bool) {
    let output = Output<Int>()
    let scene = Scene(output: output, trigger: 1, responderOwned: responderOwned)
    for event in 0..<4 { output.send(event) }
    #expect(scene.xLog.elements == [2, 3], "X must miss 1, the event it was added during, and get the next ones")
    #expect(scene.logs[7].elements == [0], "#7, cancelled during 1, must be skipped from then on")
    #expect(scene.logs[3].elements == [0, 1], "#3 cancelled itself after handling 1")
    for index in [0, 1, 2, 4, 5, 6, 8, 9] {
      #expect(scene.logs[index].elements == [0, 1, 2, 3], "#\(index) was skipped")
    }
    #expect(output.subscriberCount == 9)
  }

  @Test func changesDuringAnEventHoldAgainstTheDeliveryOrderWhileOtherThreadsSend() async {
    // Two threads send; the trigger is one of thread 0's events. Whatever order the output delivered in (as #0 saw
    // it), X gets exactly the events after the trigger, #7 and #3 exactly those before it (#3 including it), and
    // the rest everything.
    let perThread = stress(1000)
    let trigger = perThread / 2
    for _ in 0..<stress(20) {
      let output = Output<Int>()
      let scene = Scene(output: output, trigger: trigger, responderOwned: false)
      guard
        await runConcurrently(
          threads: 2,
          { thread in
            for sequence in 0..<perThread { output.send(thread * perThread + sequence) }
          })
      else { return }
      let order = scene.logs[0].elements
      guard let position = order.firstIndex(of: trigger) else {
        Issue.record("the trigger event never reached #0")
        return
      }
      var wrong: [String] = []
      if order.count != 2 * perThread { wrong.append("#0 received \(order.count) of \(2 * perThread)") }
      if scene.xLog.elements != Array(order[(position + 1)...]) { wrong.append("X did not get exactly what followed") }
      if scene.logs[7].elements != Array(order[..<position]) { wrong.append("#7 did not get exactly what preceded") }
      if scene.logs[3].elements != Array(order[...position]) { wrong.append("#3 got something after cancelling") }
      for index in [1, 2, 4, 5, 6, 8, 9] where scene.logs[index].elements != order {
        wrong.append("#\(index) was skipped or saw another order")
      }
      #expect(wrong.isEmpty, "G5, trigger at position \(position) of \(order.count): \(wrong)")
      if !wrong.isEmpty { break }
    }
  }
}
