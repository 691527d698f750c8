// Atomic operations on one machine word, for EventBus's `AtomicWord` (Sources/EventBus/Internal/AtomicWord.swift),
// the only Swift code that calls them.
//
// Swift's own `Atomic` needs macOS 15 / iOS 18, above the package's minimums, so the few operations EventBus needs
// are these compiler builtins, inlined into their Swift callers. Shared state that is not one of these words (the
// delivery latch, a token's target, a queued subscription's "cancelled", the early-release check's flag) stays behind
// a lock, or is confined to the thread that holds an output's delivery, handed on through the latch.

#ifndef CEVENTBUS_ATOMICS_H
#define CEVENTBUS_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

/// Reads `*word`; later reads and writes of the calling thread are not moved before it.
static inline uintptr_t eventbus_atomic_load_acquire(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Writes `value` to `*word`; earlier reads and writes of the calling thread are not moved after it.
static inline void eventbus_atomic_store_release(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Stores `value` in `*word` and returns what was there. Acquire and release.
static inline uintptr_t eventbus_atomic_exchange(uintptr_t *word, uintptr_t value) {
  return __atomic_exchange_n(word, value, __ATOMIC_ACQ_REL);
}

/// Replaces `*word` with `desired` if it equals `*expected`, and returns true. Otherwise stores the value found in
/// `*expected` and returns false. Acquire and release on success, acquire on failure.
static inline bool eventbus_atomic_compare_exchange(uintptr_t *word, uintptr_t *expected, uintptr_t desired) {
  return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

#endif
