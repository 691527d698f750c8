/// What every contender delivers to: a screen-like object that counts the events it handles.
///
/// `handle` is never inlined, so every contender pays for exactly one real method call per delivery, as an app's
/// `handle(event:)` costs one; the difference between contenders is then the delivery mechanism alone. What it
/// does with the event (a count and a checksum) is state the optimiser must keep.
final class Responder {
  /// Events handled so far.
  private(set) var deliveries = 0
  /// A sum over the events handled, so their payload is read.
  private(set) var checksum = 0

  @inline(never)
  func handle(_ event: FanoutEvent) {
    record(event.sequence)
  }

  /// Counts one delivery carrying `value`.
  func record(_ value: Int) {
    deliveries &+= 1
    checksum &+= value
  }

  /// Responders for one contender: `count` of them, allocated together before any is subscribed.
  ///
  /// Each has been referenced weakly once, as any view or view model in an app has (a delegate, a `[weak self]`
  /// closure): Swift gives an object a side table on its first weak reference, once for its whole life, and that
  /// table belongs to the responder, not to any one subscription. Making it here keeps it out of the `memory`
  /// figures of every contender alike.
  static func crowd(count: Int) -> [Responder] {
    (0..<count).map { _ in
      let responder = Responder()
      _ = WeakReference(responder)
      return responder
    }
  }
}

// Not protected by a lock: every contender delivers synchronously while the sending thread waits (on that thread, or
// for `main-actor-message` in one main-queue block that the sender waits for), and the benchmark sends from one
// thread at a time. `Output` and NotificationCenter handlers are `@Sendable`, hence the conformance.
extension Responder: @unchecked Sendable {}

extension Sequence<Responder> {
  /// Deliveries counted by all the responders.
  var deliveries: Int { reduce(0) { $0 + $1.deliveries } }
}

/// A weak reference, made once per responder so its side table exists before anything is measured.
private final class WeakReference {
  weak var object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}
