extension ContenderName {
  /// The type that implements the contender.
  var contenderType: any Contender.Type {
    switch self {
    case .directCall: DirectCallContender.self
    case .closureArray: ClosureArrayContender.self
    case .weakBoxLoop: WeakBoxLoopContender.self
    case .weakClosureLoop: WeakClosureLoopContender.self
    case .output: OutputContender.self
    case .outputToken: OutputTokenContender.self
    case .perObserver: PerObserverContender.self
    case .broadcaster: BroadcasterContender.self
    }
  }

  /// A new contender with `responderCount` responders, none subscribed yet.
  func makeContender(responderCount: Int) -> any Contender {
    contenderType.init(responderCount: responderCount)
  }
}
