extension ContenderName {
  /// The type that implements the contender; `nil` while the module it measures is not part of the package yet.
  var contenderType: (any Contender.Type)? {
    switch self {
    case .directCall: DirectCallContender.self
    case .closureArray: ClosureArrayContender.self
    case .weakClosureLoop: WeakClosureLoopContender.self
    case .output: OutputContender.self
    // KeyboardBroadcaster and KeyboardUserInfo come with the Broadcasters module.
    case .perObserver, .broadcaster: nil
    }
  }

  /// Whether this build of `Bench` can measure the contender.
  var isAvailable: Bool { contenderType != nil }

  /// A new contender with `responderCount` responders, none subscribed yet.
  func makeContender(responderCount: Int) -> any Contender {
    guard let contenderType else { preconditionFailure("contender '\(name)' is not available in this build") }
    return contenderType.init(responderCount: responderCount)
  }
}
