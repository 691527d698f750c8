import BenchHarness
import EventBus

extension ContenderName {
  /// A new contender of a same-thread scenario with `responderCount` responders, none subscribed yet.
  func makeContender(in scenario: Scenario, responderCount: Int) -> any Contender {
    switch self {
    case .directCall: DirectCallContender(responderCount: responderCount)
    case .closureArray: ClosureArrayContender(responderCount: responderCount)
    case .weakBoxLoop: WeakBoxLoopContender(responderCount: responderCount)
    case .weakClosureLoop: WeakClosureLoopContender(responderCount: responderCount)
    case .output: OutputContender(responderCount: responderCount)
    case .outputToken: OutputTokenContender(responderCount: responderCount)
    case .perObserver: PerObserverContender(responderCount: responderCount)
    case .broadcaster: BroadcasterContender(responderCount: responderCount)
    case .mainActorMessage:
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
        scenario == .sourceFanout
          ? MainActorMessageContender<KeyboardWillShowMessage>(responderCount: responderCount)
          : MainActorMessageContender<FanoutMessage>(responderCount: responderCount)
      } else {
        preconditionFailure("\(name) needs NotificationCenter.MainActorMessage (macOS 26, iOS 26)")
      }
    case .mainQueueAsync, .asyncStream, .asyncMessage, .outputBounded:
      preconditionFailure("\(name) takes part only in the scenarios that send from another thread")
    case .unbounded, .newest100, .oldest100, .latest:
      preconditionFailure("\(name) takes part only in the overload scenarios")
    }
  }

  /// A new contender of a main-actor scenario, `responders` subscribed.
  @MainActor
  func makeMainActorContender(responders: [MainActorResponder]) -> any MainActorContender {
    switch self {
    case .output: OutputOnMainContender(responders: responders)
    case .outputBounded:
      OutputOnMainContender(responders: responders, context: .main(bufferingPolicy: Self.outputBoundedPolicy))
    case .mainQueueAsync: MainQueueAsyncContender(responders: responders)
    case .asyncStream: AsyncStreamContender(responders: responders)
    case .mainActorMessage:
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
        MainActorMessageHopContender(responders: responders)
      } else {
        preconditionFailure("\(name) needs NotificationCenter.MainActorMessage (macOS 26, iOS 26)")
      }
    default: preconditionFailure("\(name) takes no part in the main-actor scenarios")
    }
  }

  /// A new contender of `actor`, `responders` subscribed.
  func makeActorContender(responders: [ActorResponder]) -> any ActorContender {
    switch self {
    case .output: OutputActorContender(responders: responders)
    case .asyncStream: AsyncStreamActorContender(responders: responders)
    case .asyncMessage:
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
        AsyncMessageContender(responders: responders)
      } else {
        preconditionFailure("\(name) needs NotificationCenter.AsyncMessage (macOS 26, iOS 26)")
      }
    default: preconditionFailure("\(name) takes no part in the actor scenario")
    }
  }

  /// The policy of `output-bounded`: room for ten bursts, so a burst, which is delivered before the next is sent,
  /// never drops an event, and the figure is what the bounded path costs a delivery.
  static let outputBoundedPolicy = DeliveryContext.BufferingPolicy.bufferingNewest(1_000)

  /// The buffering policy an overload contender subscribes with; `nil` for the other contenders.
  var overloadPolicy: DeliveryContext.BufferingPolicy? {
    switch self {
    case .unbounded: .unbounded
    case .newest100: .bufferingNewest(OverloadScenario.bound)
    case .oldest100: .bufferingOldest(OverloadScenario.bound)
    case .latest: .latest
    default: nil
    }
  }

  /// Whether this platform has what the contender needs: Foundation's typed messages are new on Apple platforms.
  var isAvailable: Bool {
    guard self == .mainActorMessage || self == .asyncMessage else { return true }
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
      return true
    }
    return false
  }
}
