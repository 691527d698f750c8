import Dispatch

/// Runs main-actor code from any thread, and waits for it.
///
/// Inline when the caller is already on the main queue (the main actor's executor, on whatever thread serves it);
/// otherwise as one block on the main queue, which some thread must be serving (`dispatchMain()`, a run loop, or an
/// async `main`).
public enum MainActorHop {
  /// The result of `body`, run on the main actor.
  public static func run<Result: Sendable>(_ body: @MainActor () throws -> Result) rethrows -> Result {
    if isOnMainQueue {
      return try MainActor.assumeIsolated(body)
    }
    return try DispatchQueue.main.sync { try MainActor.assumeIsolated(body) }
  }

  private static let key = DispatchSpecificKey<Bool>()

  // Set before anyone asks; `setSpecific` is thread-safe.
  private static let isMarked: Bool = {
    DispatchQueue.main.setSpecific(key: key, value: true)
    return true
  }()

  /// Whether the caller runs on the main queue: a main-queue block, a main-actor job, or the process's first thread
  /// before it handed the main queue over to `dispatchMain()`.
  public static var isOnMainQueue: Bool {
    isMarked && DispatchQueue.getSpecific(key: key) == true
  }
}
