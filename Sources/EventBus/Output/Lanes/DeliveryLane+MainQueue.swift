import Dispatch

/// The key of the value set on the main queue, which ``isOnMainQueue()`` reads.
private let mainQueueKey = DispatchSpecificKey<Bool>()

/// Set once, the first time anyone asks. `setSpecific` is thread-safe.
private let isMainQueueMarked: Bool = {
  DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
  return true
}()

/// Whether the calling code runs on the main queue (a block of the main queue, a main-actor job, or the process's
/// first thread before it gave the main queue away), or on a queue that targets it: what `.main` delivery asks before
/// it runs a `@MainActor` handler inline.
///
/// `Thread.isMainThread` is the wrong question: under Swift concurrency on Linux, and inside Swift Testing, the main
/// actor's jobs run on the main queue but on another thread once the process's first thread has given the main queue
/// away (`dispatchMain()`, the first suspension of an async `main`). A queue-specific value set on the main queue is
/// seen by every block the main queue runs, on whatever thread, including the main actor's jobs, and by the process's
/// first thread, which libdispatch counts as the main queue until it gives it away. On Apple platforms the main queue
/// always runs on the main thread, so the answer is the same as `Thread.isMainThread` there.
func isOnMainQueue() -> Bool {
  guard isMainQueueMarked else { return false }
  return DispatchQueue.getSpecific(key: mainQueueKey) == true
}
