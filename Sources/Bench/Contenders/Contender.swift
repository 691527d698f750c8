import BenchHarness

/// One way of getting events from a sender to N responders on the sender's thread, set up for one N.
///
/// A contender makes its responders when it is created and subscribes them in ``subscribeAll()``, so the
/// `memory` scenario can measure subscribing alone. The timed scenarios call ``send(events:)`` or
/// ``ChurningContender/subscribeAndCancel(cycles:)`` in repetitions.
protocol Contender: AnyObject {
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

/// One way of getting events from a background thread to N responders on the main actor, for `main-actor` and
/// `main-actor-paced`. Made on the main actor with its responders subscribed; ``send(_:)`` runs on the measuring
/// thread, never on the main actor.
protocol MainActorContender: AnyObject, Sendable {
  /// Sends one event to every responder.
  func send(_ event: MainActorEvent)
}

/// One way of getting events from a background thread to N actors, for `actor`. Made with its actors subscribed;
/// ``send(_:)`` runs on the measuring thread.
protocol ActorContender: AnyObject, Sendable {
  /// Sends one event to every actor.
  func send(_ event: ActorEvent)
}
