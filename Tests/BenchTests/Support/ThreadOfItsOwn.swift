import Foundation

/// The value of `body`, run on a thread of its own while the caller waits, as Bench measures on a thread of its own.
///
/// The `actor` scenario's sender blocks until tasks have delivered its events; a test that sent from the thread
/// running it would hold one of the few threads those tasks need. So would a test that blocked while it waited: the
/// caller suspends instead, polling every millisecond, and its thread stays free for the tasks (tests run on the same
/// cooperative pool, two threads on two processors, and several at once). `nil` if `body` took longer than
/// `timeout`, so a contender that hangs fails its test instead of the whole run.
func onAThreadOfItsOwn<Value: Sendable>(
  timeout: TimeInterval = 60, _ body: @escaping @Sendable () throws -> Value
) async throws -> Value? {
  let outcome = Outcome<Value>()
  let thread = Thread {
    outcome.set(Result(catching: body))
  }
  thread.name = "Bench test sender"
  thread.start()
  let deadline = Date().addingTimeInterval(timeout)
  while outcome.done.wait(timeout: .now()) != .success {
    if Date() >= deadline { return nil }
    try await Task.sleep(nanoseconds: 1_000_000)
  }
  return try outcome.result?.get()
}

/// The result of the thread's body, written once by the thread and read after it signalled.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
  // Unprotected by a lock: `set` happens before `done.signal()`, and the reader reads after `done.wait()`.
  private(set) var result: Result<Value, any Error>?
  let done = DispatchSemaphore(value: 0)

  func set(_ result: Result<Value, any Error>) {
    self.result = result
    done.signal()
  }
}
