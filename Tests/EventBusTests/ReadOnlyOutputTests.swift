import Testing

@testable import EventBus

/// An owner exposes `readOnly` and keeps `send` to itself.
@Suite struct ReadOnlyOutputTests {
  private final class SignInState {
    private let output = Output<Bool>(replay: 1)
    var isSignedIn: ReadOnlyOutput<Bool> { output.readOnly }
    func signIn() { output.send(true) }
    var subscriberCount: Int { output.subscriberCount }
  }

  @Test func readOnlyViewDeliversTheOutputsEventsToEveryKindOfSubscriber() {
    let state = SignInState()
    let responder = Recorder<Bool>()
    state.isSignedIn.subscribe(responder)
    let log = Log<Bool>()
    let token = state.isSignedIn.subscribe { log.append($0) }
    state.signIn()
    #expect(responder.events == [true])
    #expect(log.elements == [true])
    #expect(state.isSignedIn.subscriberCount == 2)
    #expect(state.subscriberCount == 2)
    token.cancel()
    #expect(state.isSignedIn.subscriberCount == 1)
  }

  @Test func readOnlyViewKeepsTheOutputsReplayAndWeakResponders() {
    let state = SignInState()
    state.signIn()
    weak var weakResponder: Recorder<Bool>?
    do {
      let responder = Recorder<Bool>()
      weakResponder = responder
      state.isSignedIn.subscribe(responder)
      #expect(responder.events == [true])
    }
    #expect(weakResponder == nil)
    #expect(state.isSignedIn.subscriberCount == 0)
  }
}

@Suite struct ReadOnlyOutputForwardingTests {
  @Test func pruneDeadSubscribersAndPendingCountReachTheUnderlyingOutput() {
    let output = Output<Int>()
    let view = output.readOnly
    var responder: Recorder<Int>? = Recorder<Int>()
    if let responder {
      view.subscribe(responder)
    }
    responder = nil
    #expect(output.occupiedCount == 1)
    view.pruneDeadSubscribers()
    #expect(output.occupiedCount == 0)
    #expect(view.pendingCount == 0)
    let sawPending = LockedState<[Int]>([])
    let token = view.subscribe { value in
      if value == 1 {
        output.send(2)
        output.send(3)
        sawPending.withLock { $0.append(view.pendingCount) }
      }
    }
    output.send(1)
    #expect(sawPending.withLock { $0 } == [2])
    #expect(view.pendingCount == 0)
    withExtendedLifetime(token) {}
  }
}
