import BenchHarness

#if canImport(Darwin)
  import Darwin
#elseif canImport(CMallocStatistics)
  import CMallocStatistics
#endif

/// The heap bytes the process uses, for the `memory` scenario.
///
/// Darwin: `size_in_use` of `malloc_zone_statistics` over every zone. Linux (glibc): `mallinfo2()`,
/// `uordblks + hblkhd`, chunks allocated from every arena plus chunks mapped on their own (large arrays).
///
/// A reading is exact to within the allocator's per-thread caches: glibc counts a freed chunk parked in its tcache
/// (at most 7 per size up to 1 KiB) as in use, hands it out again without the count moving, and refills the cache
/// from its bins. So a growth is uncertain by a few hundred bytes either way, which the `memory` scenario spreads
/// over at least 10 000 subscriptions.
enum HeapUsage {
  /// Whether the readings follow what the process allocates; the `memory` scenario is skipped where they do not.
  ///
  /// Not only a question of platform: under AddressSanitizer or ThreadSanitizer another allocator serves `malloc`,
  /// and glibc's statistics stand still. So a 256 KiB block is allocated and must show.
  static let isAvailable: Bool = {
    let size = 256 * 1024
    var block: UnsafeMutableRawPointer?
    let shown = growth { block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16) }
    block?.deallocate()
    return (shown ?? 0) >= size
  }()

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
  static func growth(across body: () -> Void) -> Int? {
    guard let before = bytesInUse() else { return nil }
    body()
    return bytesInUse().map { $0 - before }
  }
}
