/// The event the `fanout` scenario sends: one word of payload, like an enum case with an associated value.
struct FanoutEvent: Sendable {
  var sequence: Int
}
