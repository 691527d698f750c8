import Dispatch
import EventBus

/// The value of `body`, run in a task of its own while the calling thread waits for it. Never call it from a task:
/// it blocks the thread.
func waitForValue<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
  let value = LockedState<Value?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let result = await body()
    value.withLock { $0 = result }
    done.signal()
  }
  done.wait()
  guard let result = value.withLock({ $0 }) else { preconditionFailure("the task signalled without a value") }
  return result
}
