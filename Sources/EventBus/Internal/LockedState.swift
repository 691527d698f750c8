#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State that can only be read or written while its lock is held.
///
/// The state and the lock each live at a fixed address of their own, allocated once and reached through a pointer
/// from the owner. Not a `ManagedBuffer` holding both: reaching a `ManagedBuffer`'s header needs the header type's
/// layout, which code compiled without knowing the state's generic arguments must look up in the runtime's metadata
/// cache on every access (callgrind: 330 instructions a `withLock` on an `Output` from unspecialised code, such as
/// every `subscribe`). A pointer's pointee needs no layout.
///
/// The lock is `os_unfair_lock` on Darwin and a `pthread_mutex_t` elsewhere. Debug builds use an error-checking
/// mutex, so a recursive `withLock` (a bug: some code called back into the owner while holding its lock)
/// traps at once instead of hanging. `os_unfair_lock` traps on recursion by itself.
///
/// Shared with the `Broadcasters` module through `package` access; users never see it.
@usableFromInline
package struct LockedState<State: ~Copyable> {
  @usableFromInline let storage: Storage

  package init(_ initialState: consuming State) {
    storage = Storage(initialState)
  }

  /// Runs `body` with exclusive access to the state.
  ///
  /// Never call user code from `body`: decide under the lock, act after it (G8).
  @inlinable @inline(__always)
  package func withLock<Result: ~Copyable>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try storage.withLock(body)
  }
}

extension LockedState where State: ~Copyable {
  @usableFromInline
  final class Storage {
    @usableFromInline let state: UnsafeMutablePointer<State>
    @usableFromInline let lock: UnsafeMutablePointer<PlatformLock>

    init(_ initialState: consuming State) {
      state = UnsafeMutablePointer.allocate(capacity: 1)
      state.initialize(to: initialState)
      lock = UnsafeMutablePointer.allocate(capacity: 1)
      PlatformLock.initialize(lock)
    }

    deinit {
      PlatformLock.destroy(lock)
      lock.deallocate()
      state.deinitialize(count: 1)
      state.deallocate()
    }

    @inlinable @inline(__always)
    func withLock<Result: ~Copyable>(_ body: (inout State) throws -> Result) rethrows -> Result {
      PlatformLock.lock(lock)
      defer { PlatformLock.unlock(lock) }
      return try body(&state.pointee)
    }
  }
}

// The storage is shared between threads; every access to the state goes through `withLock`, which holds the
// platform lock for the whole access.
extension LockedState.Storage: @unchecked Sendable where State: Sendable & ~Copyable {}
extension LockedState: @unchecked Sendable where State: Sendable & ~Copyable {}

#if canImport(Darwin)
  @usableFromInline package typealias PlatformLock = os_unfair_lock
#else
  @usableFromInline package typealias PlatformLock = pthread_mutex_t
#endif

extension PlatformLock {
  fileprivate static func initialize(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(Darwin)
      lock.initialize(to: os_unfair_lock())
    #else
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      #if DEBUG
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
      #endif
      let result = pthread_mutex_init(lock, &attributes)
      precondition(result == 0, "pthread_mutex_init failed: \(result)")
      pthread_mutexattr_destroy(&attributes)
    #endif
  }

  fileprivate static func destroy(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if !canImport(Darwin)
      pthread_mutex_destroy(lock)
    #endif
    lock.deinitialize(count: 1)
  }

  @inlinable @inline(__always)
  static func lock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(Darwin)
      os_unfair_lock_lock(lock)
    #else
      let result = pthread_mutex_lock(lock)
      // EDEADLK: the error-checking mutex of a debug build caught a recursive lock.
      precondition(result == 0, "EventBus: lock failed (\(result)); a lock was taken recursively")
    #endif
  }

  @inlinable @inline(__always)
  static func unlock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(Darwin)
      os_unfair_lock_unlock(lock)
    #else
      let result = pthread_mutex_unlock(lock)
      precondition(result == 0, "EventBus: unlock failed (\(result))")
    #endif
  }
}

extension LockedState {
  /// Replaces the state with `newValue` and returns the old state, for the caller to release after unlocking: its
  /// `deinit`, or its captures', may be user code.
  package func exchange(_ newValue: State) -> State {
    withLock { replacing(&$0, with: newValue) }
  }

  /// Takes the value out, leaving `nil`, for the caller to use and release after unlocking.
  package func take<Wrapped>() -> State where State == Wrapped? {
    withLock { replacing(&$0, with: nil) }
  }
}

/// Stores `newValue` in `value` and returns what was there: the step of a locked closure that swaps a value out, so
/// that the old one is released by the caller, after unlocking, not inside the closure.
@inlinable @inline(__always)
package func replacing<Value>(_ value: inout Value, with newValue: Value) -> Value {
  var old = newValue
  swap(&value, &old)
  return old
}
