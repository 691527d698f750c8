import CEventBusAtomics

/// One machine word that threads share with no lock, read and written only atomically: the latch's, a queued
/// subscription's "cancelled", the early-release check's flag.
///
/// Invariant, upheld here alone: the word lives in memory of its own, allocated by `init` and freed by `deinit`, so its
/// address is fixed for its whole life, which the atomic operations need; the address of a class's stored property is
/// not something the language promises to keep. The value owns that memory and is noncopyable: it cannot be copied
/// out of its owner and outlive it. `AtomicWordTests` run under ThreadSanitizer and AddressSanitizer in CI.
///
/// Swift's own `Atomic` would do, but needs iOS 18 and macOS 15, above the package's minimums; the operations are the
/// compiler's builtins (`CEventBusAtomics`), inlined, and ThreadSanitizer sees their ordering.
@usableFromInline
struct AtomicWord: ~Copyable {
  @usableFromInline let address: UnsafeMutablePointer<UInt>

  @usableFromInline
  init(_ value: UInt = 0) {
    address = .allocate(capacity: 1)
    address.initialize(to: value)
  }

  deinit {
    address.deinitialize(count: 1)
    address.deallocate()
  }

  /// The value; later reads and writes of the calling thread are not moved before it (acquire).
  @inlinable @inline(__always)
  func load() -> UInt {
    eventbus_atomic_load_acquire(address)
  }

  /// Stores `value`; earlier reads and writes of the calling thread are not moved after it (release).
  @inlinable @inline(__always)
  func store(_ value: UInt) {
    eventbus_atomic_store_release(address, value)
  }

  /// Stores `value` and returns the value it replaced (acquire and release).
  @inlinable @inline(__always)
  func exchange(_ value: UInt) -> UInt {
    eventbus_atomic_exchange(address, value)
  }

  /// Stores `desired` if the value is `expected`, and returns `true`; otherwise writes the value found to `expected`
  /// and returns `false` (acquire and release on success, acquire on failure).
  @inlinable @inline(__always)
  func compareExchange(expected: inout UInt, desired: UInt) -> Bool {
    eventbus_atomic_compare_exchange(address, &expected, desired)
  }
}

// The word is read and written only through the atomic operations above.
extension AtomicWord: @unchecked Sendable {}
