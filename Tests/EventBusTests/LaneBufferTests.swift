import Testing

@testable import EventBus

/// The raw first-in first-out queue of a delivery lane: order across growth and wrap-around, and every event it held
/// deinitialised exactly once, whether delivered or freed.
@Suite struct LaneBufferTests {
  /// Counts the payloads deinitialised.
  final class Deaths: @unchecked Sendable {
    var count = 0
  }

  /// An event's payload: one object per event, so each is deinitialised once, when its event's last copy goes.
  final class Payload {
    let deaths: Deaths
    init(deaths: Deaths) { self.deaths = deaths }
    deinit { deaths.count += 1 }
  }

  struct TrackedEvent {
    var number: Int
    var payload: Payload
  }

  private static func item() -> LaneBuffer.Item {
    LaneBuffer.Item(entries: [], offsets: [Int32(7)])
  }

  @Test func eventsComeOutInOrderAcrossGrowthAndWrapAround() {
    var queue = LaneBuffer()
    var next = 0
    var taken: [Int] = []
    // Appends outpace removals, so the ring wraps with events waiting and grows while wrapped.
    for round in 0..<40 {
      for _ in 0..<(round % 5 + 2) {
        queue.append(next, Self.item())
        next += 1
      }
      for _ in 0..<(round % 3 + 1) where !queue.isEmpty {
        queue.removeFirst(of: Int.self) { event, item in
          taken.append(event)
          #expect(item.offsets == [7])
        }
      }
    }
    while !queue.isEmpty {
      queue.removeFirst(of: Int.self) { event, _ in taken.append(event) }
    }
    #expect(taken == Array(0..<next))
    queue.free(of: Int.self)
  }

  @Test func everyEventIsDeinitialisedOnceWhetherDeliveredOrFreed() {
    let deaths = Deaths()
    var queue = LaneBuffer()
    for number in 0..<10 {
      queue.append(TrackedEvent(number: number, payload: Payload(deaths: deaths)), Self.item())
    }
    // The queue holds the only copy of each event.
    #expect(deaths.count == 0)
    var delivered: [Int] = []
    for _ in 0..<4 {
      queue.removeFirst(of: TrackedEvent.self) { event, _ in
        delivered.append(event.number)
        // Alive while its handler has it.
        #expect(deaths.count == delivered.count - 1)
      }
    }
    #expect(delivered == [0, 1, 2, 3])
    #expect(deaths.count == 4)
    let waiting = queue.count
    #expect(waiting == 6)
    queue.free(of: TrackedEvent.self)
    let isEmpty = queue.isEmpty
    #expect(isEmpty)
    #expect(deaths.count == 10)
  }
}
