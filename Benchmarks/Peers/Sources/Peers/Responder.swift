/// The responder of Bench's scenarios: counts what it handles; `handle` is one real call per delivery.
final class Responder {
  private(set) var deliveries = 0
  private(set) var checksum = 0

  @inline(never)
  func handle(_ sequence: Int) {
    deliveries &+= 1
    checksum &+= sequence
  }
}

// Not protected by a lock. OpenCombine's sinks run on the one thread that sends; an async-algorithms consumer task
// is the only writer of its responder, and the semaphore it signals at the end of each batch orders its writes
// before the measuring thread reads the count.
extension Responder: @unchecked Sendable {}

extension Sequence<Responder> {
  /// Deliveries counted by all the responders.
  var deliveries: Int { reduce(0) { $0 + $1.deliveries } }
}
