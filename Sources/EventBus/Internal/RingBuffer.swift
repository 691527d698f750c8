/// A first-in first-out queue over a growable circular buffer.
///
/// `Output` keeps one for events sent while a delivery is running and one for its replay window. Capacity is kept
/// when the queue empties, so a steady rhythm of sends allocates nothing.
@usableFromInline
struct RingBuffer<Element> {
  @usableFromInline var storage: ContiguousArray<Element?> = []
  @usableFromInline var head = 0
  @usableFromInline var count = 0

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { count == 0 }

  @inlinable
  mutating func append(_ element: Element) {
    if count == storage.count {
      grow()
    }
    storage[(head + count) % storage.count] = element
    count += 1
  }

  /// Appends, dropping the oldest element first when `count` would exceed `limit`.
  ///
  /// - Returns: The dropped element, for the caller to release where it chooses (outside a lock: releasing an element
  ///   can run a deinit).
  @inlinable
  mutating func append(_ element: Element, keepingAtMost limit: Int) -> Element? {
    guard limit > 0 else { return nil }
    let dropped = count == limit ? popFirst() : nil
    append(element)
    return dropped
  }

  /// Changes the first element in place.
  ///
  /// - Precondition: The buffer is not empty.
  mutating func modifyFirst(_ body: (inout Element) -> Void) {
    precondition(count > 0, "modifyFirst on an empty buffer")
    var element = storage[head].take().unsafelyUnwrapped
    body(&element)
    storage[head] = element
  }

  @inlinable
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = storage[head].take()
    head = (head + 1) % storage.count
    count -= 1
    return element
  }

  /// The elements, oldest first.
  var elements: ContiguousArray<Element> {
    var result = ContiguousArray<Element>()
    result.reserveCapacity(count)
    for offset in 0..<count {
      if let element = storage[(head + offset) % storage.count] {
        result.append(element)
      }
    }
    return result
  }

  @usableFromInline
  mutating func grow() {
    var grown = ContiguousArray<Element?>(repeating: nil, count: Swift.max(4, storage.count * 2))
    for offset in 0..<count {
      grown[offset] = storage[(head + offset) % storage.count].take()
    }
    storage = grown
    head = 0
  }
}

extension RingBuffer: Sendable where Element: Sendable {}
