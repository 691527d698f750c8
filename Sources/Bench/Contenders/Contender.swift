/// One way of getting events from a sender to N responders, set up for one N.
///
/// A contender makes its responders when it is created and subscribes them in ``subscribeAll()``, so the
/// `memory` scenario can measure subscribing alone. The timed scenarios call ``send(events:)`` or
/// ``ChurningContender/subscribeAndCancel(cycles:)`` in repetitions.
protocol Contender: AnyObject {
  /// Makes `responderCount` responders and subscribes none of them.
  init(responderCount: Int)

  /// Subscribes every responder. Called once.
  func subscribeAll()

  /// Sends `events` events, each of which reaches every subscribed responder.
  func send(events: Int)

  /// Deliveries the responders counted.
  var deliveries: Int { get }
}

/// A contender whose subscriptions can be made and ended one at a time, for `subscribe-cancel`.
protocol ChurningContender: Contender {
  /// Subscribes a spare responder and cancels its subscription again, `cycles` times.
  func subscribeAndCancel(cycles: Int)

  /// Cycles completed so far.
  var cycles: Int { get }
}

/// A contender that subscribes to NotificationCenter, for `upstream`.
protocol UpstreamContender: Contender {
  /// Upstream NotificationCenter subscriptions the contender holds right now.
  var upstreamSubscriptions: Int { get }
}
