// Bench's main-actor scenarios report how many blocks each contender hands to the main queue per event. Every way
// of reaching the main queue ends in one of libdispatch's enqueue functions: `DispatchQueue.main.async` calls
// `dispatch_async`, the main actor's executor calls `dispatch_async_f` for every job (a `Task`, a resumed `await`),
// `asyncAfter` calls `dispatch_after`, and so on. This file defines those functions: the dynamic linker binds every
// library's calls to the executable's definition first, so each call lands here, is counted when its queue is the
// main queue, and is handed on unchanged to libdispatch's own function (`RTLD_NEXT`).
//
// Only on Linux, where symbols resolve that way, and never in a sanitizer build: ThreadSanitizer defines these
// functions itself to see the ordering they give, and a definition here would hide them from it. Elsewhere the
// count is -1 and Bench reports no block figures. Bench also checks at run time that one `DispatchQueue.main.async`
// is counted before it reports any (a static libdispatch, for one, would bypass this file).
#include "CMainQueueBlocks.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define C_MAIN_QUEUE_BLOCKS_SANITIZED 1
#endif
#endif

#if defined(__linux__) && !defined(C_MAIN_QUEUE_BLOCKS_SANITIZED)

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>

// libdispatch's types, declared here by their shape: its headers are not on a C target's include path.
typedef void *queue_t;
typedef void *group_t;
typedef void *block_t;
typedef void (*function_t)(void *);
typedef uint64_t time_value_t;

static _Atomic long blocks_enqueued;

static void *resolve(_Atomic(void *) *slot, const char *name) {
  void *function = atomic_load_explicit(slot, memory_order_acquire);
  if (function == NULL) {
    // dlsym is thread-safe and returns the same address every time, so two threads racing here agree.
    function = dlsym(RTLD_NEXT, name);
    atomic_store_explicit(slot, function, memory_order_release);
  }
  return function;
}

static void count(queue_t queue) {
  static _Atomic(void *) main_queue_address;
  void *main = resolve(&main_queue_address, "_dispatch_main_q");
  if (queue == main) {
    atomic_fetch_add_explicit(&blocks_enqueued, 1, memory_order_relaxed);
  }
}

long c_main_queue_blocks_enqueued(void) { return atomic_load_explicit(&blocks_enqueued, memory_order_relaxed); }

void dispatch_async(queue_t queue, block_t block) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(queue_t, block_t))resolve(&real, "dispatch_async"))(queue, block);
}

void dispatch_async_f(queue_t queue, void *context, function_t work) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(queue_t, void *, function_t))resolve(&real, "dispatch_async_f"))(queue, context, work);
}

void dispatch_barrier_async(queue_t queue, block_t block) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(queue_t, block_t))resolve(&real, "dispatch_barrier_async"))(queue, block);
}

void dispatch_barrier_async_f(queue_t queue, void *context, function_t work) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(queue_t, void *, function_t))resolve(&real, "dispatch_barrier_async_f"))(queue, context, work);
}

void dispatch_group_async(group_t group, queue_t queue, block_t block) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(group_t, queue_t, block_t))resolve(&real, "dispatch_group_async"))(group, queue, block);
}

void dispatch_group_async_f(group_t group, queue_t queue, void *context, function_t work) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(group_t, queue_t, void *, function_t))resolve(&real, "dispatch_group_async_f"))(
      group, queue, context, work);
}

void dispatch_after(time_value_t when, queue_t queue, block_t block) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(time_value_t, queue_t, block_t))resolve(&real, "dispatch_after"))(when, queue, block);
}

void dispatch_after_f(time_value_t when, queue_t queue, void *context, function_t work) {
  static _Atomic(void *) real;
  count(queue);
  ((void (*)(time_value_t, queue_t, void *, function_t))resolve(&real, "dispatch_after_f"))(
      when, queue, context, work);
}

#else

long c_main_queue_blocks_enqueued(void) { return -1; }

#endif
