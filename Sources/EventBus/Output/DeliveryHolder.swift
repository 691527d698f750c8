/// The calling thread holds an output's delivery: a value the compiler tracks, made where a claim of the latch
/// succeeded and gone once the latch is let go.
///
/// What only the holder may read or write, an entry's round flags (``Entry/isSkipped(_:)``, ``Entry/isDead(_:)``), the
/// round's stamps (``RoundEntries``) and a lane's place in the round (`DeliveryLane.receive(_:for:in:holder:)`), is
/// reached only through methods that take one, so code that does not hold the delivery has nothing to pass them and
/// does not compile. It is noncopyable and not `Sendable`: it cannot be kept past the release, nor handed to another
/// thread. It is one word, passed in a register: holding it costs nothing.
///
/// Made by ``DeliveryLatch/tryClaim(for:)`` (the lock-free send), ``DeliveryLatch/holder(ifHeldBy:)`` (a cancel made
/// by the holder itself, from a handler), and by `Output.deliverRounds` for a step that made the caller the holder
/// under the lock, which debug builds check against the latch.
@usableFromInline
struct DeliveryHolder: ~Copyable {
  @usableFromInline let thread: ThreadIdentity

  @inlinable @inline(__always)
  init(thread: ThreadIdentity) {
    self.thread = thread
  }
}

// A holder belongs to the thread that claimed the delivery.
@available(*, unavailable)
extension DeliveryHolder: Sendable {}
