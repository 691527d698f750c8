/// The locked steps of a delivery: each asks the latch what it must (a claim), lets the machine decide, and carries out
/// on the latch what the machine decided (``DeliveryStateMachine/Step/keepsDelivery``). Called under the output's lock,
/// by the output and by the machine's tests alike.
@usableFromInline
enum DeliverySteps {
  /// An event sent from `thread`, on the path that takes the lock.
  @inlinable
  static func send<Event>(
    _ event: Event, from thread: ThreadIdentity, machine: inout DeliveryStateMachine<Event>,
    subscribers: inout SubscriberList
  ) -> DeliveryStateMachine<Event>.Step {
    let claimed = subscribers.claimOrMarkWorkQueued(for: thread)
    return machine.send(event, claimed: claimed, subscribers: subscribers)
  }

  /// The end of a round of `holder`.
  @inlinable
  static func finishRound<Event>(
    deadFound: Bool, holder: borrowing DeliveryHolder, machine: inout DeliveryStateMachine<Event>,
    subscribers: inout SubscriberList
  ) -> DeliveryStateMachine<Event>.Step {
    let step = machine.finishRound(deadFound: deadFound, holder: holder, subscribers: &subscribers)
    settle(step, by: holder.thread, subscribers: subscribers)
    return step
  }

  /// The end of a replay window handed to `entry` by `holder`.
  @usableFromInline
  static func finishReplay<Event>(
    to entry: Entry, deadFound: Bool, holder: borrowing DeliveryHolder, machine: inout DeliveryStateMachine<Event>,
    subscribers: inout SubscriberList
  ) -> DeliveryStateMachine<Event>.Step {
    let step = machine.finishReplay(to: entry, deadFound: deadFound, holder: holder, subscribers: &subscribers)
    settle(step, by: holder.thread, subscribers: subscribers)
    return step
  }

  /// `entry` subscribes at `location` from `thread`, to an output with a replay window.
  @usableFromInline
  static func subscribe<Event>(
    _ entry: Entry, at location: CallSite, from thread: ThreadIdentity, machine: inout DeliveryStateMachine<Event>,
    subscribers: inout SubscriberList
  ) -> DeliveryStateMachine<Event>.Step {
    let change = subscribers.add(entry, at: location)
    var step = DeliveryStateMachine<Event>.Step(.idle)
    if machine.hasReplayWindow {
      step = machine.subscribed(entry, claimed: subscribers.claimOrMarkWorkQueued(for: thread))
    }
    step.change = change
    return step
  }

  /// A call of `Output.waitUntilDelivered()`: if a thread holds the delivery, marks work queued for it, so that it
  /// takes the lock when its round ends, and keeps `wait` until the holder has delivered what is queued for it now;
  /// returns whether it did. When nobody holds the delivery, everything sent has been handed to every subscriber.
  static func wait<Event>(
    _ wait: DeliveryWait, machine: inout DeliveryStateMachine<Event>, subscribers: borrowing SubscriberList
  ) -> Bool {
    guard subscribers.markWorkQueuedIfDelivering() else { return false }
    machine.wait(wait)
    return true
  }

  @inlinable
  static func settle<Event>(
    _ step: DeliveryStateMachine<Event>.Step, by thread: ThreadIdentity, subscribers: borrowing SubscriberList
  ) {
    if let keeping = step.keepsDelivery {
      subscribers.settle(holder: thread, keeping: keeping)
    }
  }
}
