import Foundation

/// A second thread that stays alive, blocked and idle, for the whole run, as every app has more than one thread.
///
/// glibc's `pthread_mutex_lock` and `pthread_mutex_unlock` skip their atomic instructions while a process has a
/// single thread, which would make every lock look about 20 ns per send cheaper than it is in an app. The thread
/// does nothing but wait, so it takes no time from the measurements. ``TimedComparison/measure(_:plan:)`` starts it.
public enum IdleThread {
  private static let started: Void = {
    let thread = Thread {
      // Blocks for the rest of the process: the semaphore is never signalled.
      DispatchSemaphore(value: 0).wait()
    }
    thread.name = "Bench idle thread"
    thread.start()
  }()

  /// Starts the thread, once per process; later calls do nothing.
  public static func start() {
    started
  }
}
