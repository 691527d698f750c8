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

// Not protected by a lock: every contender delivers synchronously on the one thread that sends.
extension Responder: @unchecked Sendable {}
