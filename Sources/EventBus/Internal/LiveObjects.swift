/// Counts the library's internal objects that are alive, by kind and event type, when a build opts in.
///
/// Tests use it to prove that every way a subscription can end frees what it allocated (G6). Counting by event type
/// lets a test that uses its own event type read its own count while other tests run in parallel. Counting takes a
/// process-wide lock on every creation and destruction, so it is compiled in only for debug builds with the package
/// trait `LiveObjects` (`swift test --traits LiveObjects`); otherwise nothing is counted and `count` reads 0.
package enum LiveObjects {
  /// Whether this build counts live objects.
  package static var isEnabled: Bool {
    #if EVENTBUS_LIVE_OBJECTS
      return true
    #else
      return false
    #endif
  }

  #if EVENTBUS_LIVE_OBJECTS
    private static let counts = LockedState<[String: Int]>([:])
  #endif

  /// The number of live objects of `kind` (for example `"Output.Entry"`) for events of type `eventType`.
  package static func count(_ kind: String, for eventType: Any.Type) -> Int {
    #if EVENTBUS_LIVE_OBJECTS
      let key = "\(kind)<\(String(reflecting: eventType))>"
      return counts.withLock { $0[key, default: 0] }
    #else
      return 0
    #endif
  }

  /// Every live object of every kind for events of type `eventType`.
  package static func total(for eventType: Any.Type) -> Int {
    #if EVENTBUS_LIVE_OBJECTS
      let suffix = "<\(String(reflecting: eventType))>"
      return counts.withLock { counts in counts.filter { $0.key.hasSuffix(suffix) }.values.reduce(0, +) }
    #else
      return 0
    #endif
  }

  @inline(__always)
  package static func created(_ kind: String, for eventType: Any.Type) {
    #if EVENTBUS_LIVE_OBJECTS
      let key = "\(kind)<\(String(reflecting: eventType))>"
      counts.withLock { $0[key, default: 0] += 1 }
    #endif
  }

  @inline(__always)
  package static func destroyed(_ kind: String, for eventType: Any.Type) {
    #if EVENTBUS_LIVE_OBJECTS
      let key = "\(kind)<\(String(reflecting: eventType))>"
      counts.withLock { $0[key, default: 0] -= 1 }
    #endif
  }
}
