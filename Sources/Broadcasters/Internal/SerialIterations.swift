import EventBus

/// The iterating tasks of one source, run one after another: each starts only after the previous one has finished.
///
// A broadcaster stops a connection without waiting for it (stop must not block), so the next connection's task may
// be created while the previous one is still unwinding; chaining keeps two iterations (two upstream subscriptions)
// from ever overlapping.
final class SerialIterations: Sendable {
  private let latest = LockedState<Task<Void, Never>?>(nil)

  /// Starts a task that runs `body` once the previous task has finished, unless it is cancelled first.
  func start(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    latest.withLock { latest in
      let previous = latest
      let iteration = Task {
        await previous?.value
        guard !Task.isCancelled else { return }
        await body()
      }
      latest = iteration
      return iteration
    }
  }
}
