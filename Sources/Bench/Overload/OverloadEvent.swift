/// The event of the overload scenarios: one word of payload, its place in the run.
struct OverloadEvent: Sendable {
  var sequence: Int
}
