import Foundation
import OpenCombine

/// A Combine subscriber that requests only what the test asks for, records what it receives, and can run an action
/// from inside `receive(_:)`.
final class ManualSubscriber<Input: Sendable>: Subscriber {
  typealias Failure = Never

  let received = Log<Input>()
  private let lock = NSLock()
  private var subscription: (any Subscription)?
  private var demandAfterEachValue = Subscribers.Demand.none
  private var action: (@Sendable (Input) -> Void)?

  /// Whether the publisher handed over a subscription.
  var isSubscribed: Bool { lock.withLock { subscription != nil } }

  /// Asks the publisher for `demand` more values.
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }

  /// Cancels the subscription.
  func cancel() {
    lock.withLock { subscription }?.cancel()
  }

  /// Asks for `demand` more values each time one arrives.
  func requestOnEachValue(_ demand: Subscribers.Demand) {
    lock.withLock { demandAfterEachValue = demand }
  }

  /// Runs `action` inside `receive(_:)`, after recording the value.
  func onEachValue(_ action: @escaping @Sendable (Input) -> Void) {
    lock.withLock { self.action = action }
  }

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    received.append(input)
    let action = lock.withLock { self.action }
    action?(input)
    return lock.withLock { demandAfterEachValue }
  }

  func receive(completion: Subscribers.Completion<Never>) {}
}

// `subscription`, `demandAfterEachValue` and `action` are only read or written while `lock` is held.
extension ManualSubscriber: @unchecked Sendable {}
