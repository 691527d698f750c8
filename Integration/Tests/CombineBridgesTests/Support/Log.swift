import Foundation

/// A thread-safe list of what a handler saw.
final class Log<Element: Sendable> {
  private let lock = NSLock()
  private var storage: [Element] = []

  func append(_ element: Element) {
    lock.withLock { storage.append(element) }
  }

  var elements: [Element] { lock.withLock { storage } }
}

// `storage` is only read or written while `lock` is held.
extension Log: @unchecked Sendable {}
