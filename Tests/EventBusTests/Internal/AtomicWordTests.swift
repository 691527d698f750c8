import EventBusTestSupport
import Testing

@testable import EventBus

@Suite struct AtomicWordTests {
  @Test func isOnePointerWideAndItsWordIsAlignedForAtomicAccess() {
    // Stored in a latch, a token and every queued entry: one word of the owner's, the value in memory of its own.
    #expect(MemoryLayout<AtomicWord>.size == MemoryLayout<UnsafeRawPointer>.size)
    let word = AtomicWord(7)
    #expect(Int(bitPattern: word.address) % MemoryLayout<UInt>.alignment == 0)
    #expect(word.load() == 7)
  }

  @Test func operationsReturnWhatTheyPromise() {
    let word = AtomicWord()
    word.store(3)
    #expect(word.exchange(5) == 3)
    var expected: UInt = 4
    #expect(!word.compareExchange(expected: &expected, desired: 9))
    #expect(expected == 5, "a failed exchange reports the value it found")
    #expect(word.compareExchange(expected: &expected, desired: 9))
    #expect(word.load() == 9)
  }

  @Test func compareExchangeLosesNoIncrementAcrossThreads() async {
    final class Shared: Sendable {
      let word = AtomicWord()
    }
    let shared = Shared()
    let threads = 4
    let increments = stress(20_000)
    await runConcurrently(threads: threads) { _ in
      for _ in 0..<increments {
        var current = shared.word.load()
        while !shared.word.compareExchange(expected: &current, desired: current + 1) {}
      }
    }
    #expect(shared.word.load() == UInt(threads * increments))
  }
}
