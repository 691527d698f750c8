#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The identity of a thread, used to ask "is the caller the thread that is delivering right now?".
@usableFromInline
package struct ThreadIdentity: Equatable {
  @usableFromInline let thread: pthread_t

  @usableFromInline
  init(thread: pthread_t) {
    self.thread = thread
  }

  /// The calling thread.
  @inlinable
  package static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

  @inlinable
  package static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
    pthread_equal(lhs.thread, rhs.thread) != 0
  }
}

// On Darwin `pthread_t` is a pointer. It is only ever compared with `pthread_equal`, never dereferenced, so sharing
// it between threads is safe.
extension ThreadIdentity: @unchecked Sendable {}
