#if canImport(Darwin)
  import Darwin
#elseif canImport(CMallocStatistics)
  import CMallocStatistics
  import Glibc
#endif

/// The heap bytes the process uses, for the `memory` scenario.
///
/// Darwin: `size_in_use` of `malloc_zone_statistics` over every zone. Linux (glibc): `mallinfo2()`,
/// `uordblks + hblkhd`, chunks allocated from every arena plus chunks mapped on their own (large arrays).
enum HeapUsage {
  /// Whether this platform can tell; the `memory` scenario is skipped where it cannot.
  static var isAvailable: Bool { bytesInUse() != nil }

  /// Bytes the allocator has handed out and not had back, or `nil` where the platform has no way to tell.
  static func bytesInUse() -> Int? {
    #if canImport(Darwin)
      var statistics = malloc_statistics_t()
      malloc_zone_statistics(nil, &statistics)
      return Int(statistics.size_in_use)
    #elseif canImport(CMallocStatistics)
      let bytes = c_malloc_statistics_bytes_in_use()
      return bytes == .max ? nil : Int(bytes)
    #else
      return nil
    #endif
  }

  /// The growth in ``bytesInUse()`` across `body`, or `nil` where the platform cannot tell.
  ///
  /// glibc counts a freed chunk parked in its per-thread cache (tcache) as still in use, and hands it out
  /// again without the count moving: allocations served from that cache would go unseen. So the cache is emptied
  /// first, by taking every chunk it holds for each small size, and given back after the second reading.
  static func growth(across body: () -> Void) -> Int? {
    #if canImport(CMallocStatistics) && !canImport(Darwin)
      let drained = drainThreadCache()
      defer {
        for chunk in drained {
          free(chunk)
        }
      }
    #endif
    guard let before = bytesInUse() else { return nil }
    body()
    return bytesInUse().map { $0 - before }
  }

  #if canImport(CMallocStatistics) && !canImport(Darwin)
    // glibc's defaults: tcache bins for chunk sizes up to 1032 bytes in 16-byte steps, at most 7 chunks each.
    // Taking 8 of each size empties every bin whatever it held.
    private static let threadCacheLargestRequest = 1032
    private static let threadCacheChunksPerBin = 8

    private static func drainThreadCache() -> [UnsafeMutableRawPointer] {
      var taken: [UnsafeMutableRawPointer] = []
      taken.reserveCapacity((threadCacheLargestRequest / 16 + 1) * threadCacheChunksPerBin)
      for size in stride(from: 8, through: threadCacheLargestRequest, by: 16) {
        for _ in 0..<threadCacheChunksPerBin {
          if let chunk = malloc(size) {
            taken.append(chunk)
          }
        }
      }
      return taken
    }
  #endif
}
