import EventBus
import EventBusTestSupport

extension Reentry {
  /// Calls on `output`, sending `event`.
  static func output<Event: Sendable>(_ output: Output<Event>, sending event: Event) -> Reentry {
    Reentry(
      subscriberCount: { [weak output] in output?.subscriberCount },
      send: { [weak output] in output?.send(event) },
      subscribe: { [weak output] in output?.subscribe { _ in } }
    )
  }

  /// Calls on the events of `Event` on `hub`, posting `event`.
  static func hub<Event: Sendable>(_ hub: EventHub, posting event: Event) -> Reentry {
    Reentry(
      subscriberCount: { [weak hub] in hub?.subscriberCount(for: Event.self) },
      send: { [weak hub] in hub?.post(event) },
      subscribe: { [weak hub] in hub?.subscribe(Event.self) { _ in } }
    )
  }
}
