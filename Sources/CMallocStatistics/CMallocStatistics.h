// Heap statistics for the `memory` scenario of `Bench`. The toolchain's Glibc module does not include
// <malloc.h>, so `mallinfo2()` is reached through this header. Darwin needs nothing from here: Bench calls
// `malloc_zone_statistics` through the Darwin module.
#ifndef C_MALLOC_STATISTICS_H
#define C_MALLOC_STATISTICS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// Bytes the allocator has handed out and not had back: chunks allocated from every arena (`uordblks`) plus
/// chunks mapped on their own (`hblkhd`), which large arrays get. SIZE_MAX where the C library cannot tell.
static inline size_t c_malloc_statistics_bytes_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
#elif defined(__GLIBC__)
  // Before glibc 2.33 only the int-sized fields exist; they wrap past 2 GiB, far above what Bench allocates.
  struct mallinfo info = mallinfo();
  return (size_t)(unsigned int)info.uordblks + (size_t)(unsigned int)info.hblkhd;
#else
  return SIZE_MAX;
#endif
}

#endif
