/// What the gate in front of the WebSocket layer decides about an upgrade request, once: the only decision about it.
public enum UpgradeDecision: Sendable, Equatable {
  /// Upgraded. `slot` is the client whose connection slot it holds until the connection closes; `nil` for operators,
  /// whose connections are not counted.
  case admitted(slot: String?)
  /// Not upgraded: the request goes on as a plain `GET`, answered with this refusal.
  case refused(Refusal)
  /// Not an upgrade to a topic: the request goes on as a plain `GET`, which the router answers (`404`).
  case notASubscription
}
