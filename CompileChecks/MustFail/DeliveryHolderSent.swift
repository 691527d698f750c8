// expected-error: conformance of 'DeliveryHolder' to 'Sendable' is unavailable
// The holder belongs to the thread that claimed the delivery: it cannot be handed to another.
@testable import EventBus

func needsSendable<Value: Sendable & ~Copyable>(_ value: borrowing Value) {}

func holderHandedToAnotherThread(_ holder: borrowing DeliveryHolder) {
  needsSendable(holder)
}
