/// The event of the `actor` scenario: one word of payload, its place in the repetition.
struct ActorEvent: Sendable {
  var sequence: Int
}
