import Dispatch
import Foundation
import Testing

@testable import EventBus

/// The delivery protocol through its one owner: what a change of the list does while a thread holds the delivery, what
/// the holder installs at the end of its round, and what a lane's buffer protects. The tests play the holder's part
/// with a real claim (`claimWithNoLock`), on the test's own thread, and reach holder-only state only through the
/// storage and its round's handle.
@Suite struct DeliveryStorageTests {
  private let me = ThreadIdentity.current

  private static func names(_ entries: EntryList, _ names: [ObjectIdentifier: String]) -> [String] {
    entries.map { $0.flatMap { names[ObjectIdentifier($0)] } ?? "-" }
  }

  @Test func aChangeOnAnIdleOutputIsMadeInPlaceAndLeavesTheLatchFree() {
    let output = Output<Int>()
    let log = Log<String>()
    let a = output.subscribe { log.append("a \($0)") }
    let b = output.subscribe { log.append("b \($0)") }
    let storage = output.storage
    #expect(storage.round.entries.count == 2)
    b.cancel()
    #expect(storage.round.entries.compactMap { $0 }.count == 1, "removed from the round's list itself")
    #expect(storage.state.withLock { $0.subscribers.changedEntries == nil })
    output.send(1)
    #expect(log.elements == ["a 1"])
    withExtendedLifetime(a) {}
  }

  @Test func aSubscriberAddedWhileTheDeliveryIsHeldJoinsTheNextRoundOnly() {
    let output = Output<Int>()
    let log = Log<String>()
    let a = output.subscribe { log.append("a \($0)") }
    let storage = output.storage
    guard let holder = storage.claimWithNoLock(for: me) else {
      Issue.record("an idle output is claimed with no lock")
      return
    }
    let b = output.subscribe { log.append("b \($0)") }
    #expect(storage.round.entries.count == 1, "the round's list is frozen while a thread holds the delivery")
    #expect(storage.state.withLock { $0.subscribers.changedEntries?.count } == 2, "the change went to a copy")
    #expect(output.subscriberCount == 2, "counting sees the change at once")
    // The round the holder claimed for, then the end of it, which installs the copy.
    storage.deliver(1, holder: holder, isLockFree: true)
    #expect(log.elements == ["a 1"], "G5: added during the round, b does not receive its event")
    #expect(storage.round.entries.count == 2)
    #expect(storage.state.withLock { $0.subscribers.changedEntries == nil })
    if let again = storage.claimWithNoLock(for: me) {
      let released = storage.latch.tryRelease(again)
      #expect(released, "nothing was left queued for a holder")
    } else {
      Issue.record("the holder did not let go")
    }
    output.send(2)
    #expect(log.elements == ["a 1", "a 2", "b 2"])
    withExtendedLifetime((a, b)) {}
  }

  @Test func aCancelOnTheHoldersThreadSkipsTheEntryForTheRestOfTheRound() {
    let output = Output<Int>()
    let log = Log<String>()
    let a = output.subscribe { log.append("a \($0)") }
    let storage = output.storage
    let entries = storage.round.entries
    guard let holder = storage.claimWithNoLock(for: me) else {
      Issue.record("an idle output is claimed with no lock")
      return
    }
    a.cancel()
    let entry = entries[0]!
    #expect(Bool(storage.round.isSkipped(entry, holder)), "the round skips it from now on")
    storage.deliver(1, holder: holder, isLockFree: true)
    #expect(log.elements.isEmpty)
    #expect(storage.round.entries.compactMap { $0 }.isEmpty, "removed once the round ended")
  }

  @Test func aCancelFromAnotherThreadDuringARoundReachesTheNextRoundOnly() {
    let output = Output<Int>()
    let log = Log<String>()
    let a = output.subscribe { log.append("a \($0)") }
    let storage = output.storage
    let entry = storage.round.entries[0]!
    guard let holder = storage.claimWithNoLock(for: me) else {
      Issue.record("an idle output is claimed with no lock")
      return
    }
    storage.remove(entry, from: parkedThreadIdentity)
    #expect(!Bool(storage.round.isSkipped(entry, holder)), "only the holder's own cancel skips in its round")
    #expect(storage.round.entries.compactMap { $0 }.count == 1, "the round's list is frozen")
    storage.deliver(1, holder: holder, isLockFree: true)
    #expect(log.elements == ["a 1"], "cancelled after the event was sent, from another thread")
    #expect(storage.round.entries.compactMap { $0 }.isEmpty)
    withExtendedLifetime(a) {}
  }

  @Test func aSendWhileTheDeliveryIsHeldIsQueuedAndDeliveredByTheHolder() {
    let output = Output<Int>()
    let log = Log<Int>()
    let a = output.subscribe { log.append($0) }
    let storage = output.storage
    guard let holder = storage.claimWithNoLock(for: me) else {
      Issue.record("an idle output is claimed with no lock")
      return
    }
    output.send(2)
    output.send(3)
    #expect(output.pendingCount == 2)
    #expect(log.elements.isEmpty, "queued for the holder, not delivered by the sender")
    storage.deliver(1, holder: holder, isLockFree: true)
    #expect(log.elements == [1, 2, 3])
    #expect(output.pendingCount == 0)
    withExtendedLifetime(a) {}
  }

  @Test func aListALaneTookIsCopiedBeforeItChangesNeverWritten() async throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "suspended")
    queue.suspend()
    let log = Log<String>()
    let queued = output.subscribe(on: .queue(queue)) { log.append("queued \($0)") }
    let immediate = output.subscribe { log.append("immediate \($0)") }
    let storage = output.storage
    let before = storage.round.entries.withUnsafeBufferPointer { $0.baseAddress }
    output.send(1)  // the lane keeps the list's buffer with the event
    immediate.cancel()
    let after = storage.round.entries.withUnsafeBufferPointer { $0.baseAddress }
    #expect(before != after, "the cancel wrote a fresh copy, not the buffer the queue's block will read")
    queue.resume()
    try await output.waitUntilDelivered()
    #expect(log.elements.sorted() == ["immediate 1", "queued 1"])
    withExtendedLifetime(queued) {}
  }

  @Test func aLaneIsOfferedEachEventOnceAtItsFirstEntry() async throws {
    let output = Output<Int>()
    let queue = DispatchQueue(label: "lane")
    let log = Log<String>()
    let tokens = [
      output.subscribe(on: .queue(queue)) { log.append("q1 \($0)") },
      output.subscribe { log.append("i \($0)") },
      output.subscribe(on: .queue(queue)) { log.append("q2 \($0)") },
    ]
    for event in 1...3 {
      output.send(event)
    }
    try await output.waitUntilDelivered()
    let queuedOnly = log.elements.filter { $0.hasPrefix("q") }
    #expect(
      queuedOnly == ["q1 1", "q2 1", "q1 2", "q2 2", "q1 3", "q2 3"], "one block, each event once per subscriber")
    #expect(output.storage.round.contents.pointee.lanes.count == 1, "both queued entries share one lane")
    withExtendedLifetime(tokens) {}
  }
}

/// A ``DeliveryHolder`` is made only by a successful claim, in `DeliveryLatch.swift`: no other file of the library or
/// of its tests builds one by hand.
@Suite struct HolderTests {
  @Test func onlyTheLatchMakesAHolder() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var makers: [String] = []
    for folder in ["Sources", "Tests"] {
      let enumerator = FileManager.default.enumerator(
        at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
      while let url = enumerator?.nextObject() as? URL {
        guard url.pathExtension == "swift", url.lastPathComponent != "DeliveryLatch.swift" else { continue }
        let text = try String(contentsOf: url, encoding: .utf8)
        if text.contains("DeliveryHolder" + "(") {
          makers.append(url.lastPathComponent)
        }
      }
    }
    #expect(makers.isEmpty, "a DeliveryHolder made outside the latch: \(makers)")
  }
}
