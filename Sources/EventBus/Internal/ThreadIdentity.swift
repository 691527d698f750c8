#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The identity of a thread, used to ask "is the caller the thread that is delivering right now?".
package struct ThreadIdentity: Equatable {
  private let thread: pthread_t

  /// The calling thread.
  package static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

  package static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
    pthread_equal(lhs.thread, rhs.thread) != 0
  }
}

// On Darwin `pthread_t` is a pointer. It is only ever compared with `pthread_equal`, never dereferenced, so sharing
// it between threads is safe.
extension ThreadIdentity: @unchecked Sendable {}
