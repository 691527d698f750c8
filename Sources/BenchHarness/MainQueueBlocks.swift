import Dispatch

#if canImport(CMainQueueBlocks)
  import CMainQueueBlocks
#endif

/// Counts the blocks handed to the main queue, whoever hands them: `DispatchQueue.main.async`, the main actor's
/// jobs (a `Task`, a resumed `await`), `asyncAfter`.
///
/// The count comes from libdispatch's own enqueue functions, wrapped in the executable (Linux only, not in sanitizer
/// builds), so it sees inside every contender alike, a library's delivery included. Where it cannot count,
/// ``isCounting`` is `false` and no block figure is reported.
public enum MainQueueBlocks {
  /// Blocks handed to the main queue since the process started; meaningful only when ``isCounting``.
  public static var enqueued: Int {
    #if canImport(CMainQueueBlocks)
      Int(c_main_queue_blocks_enqueued())
    #else
      -1
    #endif
  }

  /// Whether this process counts main-queue blocks: checked once, by handing the main queue one empty block and
  /// seeing the count move.
  public static let isCounting: Bool = {
    let before = enqueued
    guard before >= 0 else { return false }
    DispatchQueue.main.async {}
    return enqueued > before
  }()
}
