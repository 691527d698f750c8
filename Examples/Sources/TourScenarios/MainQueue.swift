import Dispatch

/// Lets the main queue run the deliveries waiting in it, and the ones they queue in turn.
///
/// A subscription `on: .main` runs its handler at once when the event is sent on the main thread; otherwise (from
/// another thread, or on Linux, where the main actor runs on the main queue but off the main thread) it queues the
/// handler on the main queue. Each round trip through the main queue runs what was queued before it; a handler may
/// send again and queue one more hop, so this makes a few round trips, more than the longest chain in the tour
/// (view → view model → view).
@MainActor
public func settle() async {
  for _ in 0..<4 {
    await withCheckedContinuation { continuation in
      DispatchQueue.main.async { continuation.resume() }
    }
  }
}
