import Testing

@testable import EventBus

/// The subscriber list, a plain value: what each change does to the list it is handed, and what it hands back to be
/// released after the lock. Which list it is handed (the round's, in place, or a copy) is the storage's decision,
/// tested in `DeliveryStorageTests`.
@Suite struct SubscriberListTests {
  final class Subscriber: Entry {
    let name: String

    init(_ name: String) {
      self.name = name
      super.init(route: .handler)
    }
  }

  /// A list with `names` subscribed, in order, and the list of entries it was handed.
  private static func subscribed(_ names: String...) -> (SubscriberList, EntryList, [Subscriber]) {
    var list = SubscriberList()
    list.membershipObserver = {}
    var entries = EntryList()
    let subscribers = names.map(Subscriber.init)
    for subscriber in subscribers {
      _ = list.add(subscriber, at: CallSite(), to: &entries)
    }
    return (list, entries, subscribers)
  }

  private static func names(_ entries: EntryList) -> [String] {
    entries.map { ($0 as? Subscriber)?.name ?? "-" }
  }

  @Test func addingAppendsInOrderNumbersTheSlotAndReportsTheChange() {
    var (list, entries, subscribers) = Self.subscribed("a", "b")
    let c = Subscriber("c")
    let change = list.add(c, at: CallSite(fileID: #fileID, line: 7), to: &entries)
    #expect(change.membershipObserver != nil)
    #expect(Self.names(entries) == ["a", "b", "c"])
    #expect([subscribers[0], subscribers[1], c].map(\.slot) == [0, 1, 2])
    #expect(list.count == 3)
    #expect(list.callSites.site(c.callSite) == CallSite(fileID: #fileID, line: 7))
  }

  @Test func removingLeavesAHoleKeepsTheEntryForTheCallerAndReportsTheChange() {
    var (list, entries, subscribers) = Self.subscribed("a", "b", "c")
    let change = list.remove(subscribers[1], from: &entries)
    #expect(change.removed === subscribers[1])
    #expect(change.membershipObserver != nil)
    #expect(subscribers[1].isRemoved)
    #expect(Self.names(entries) == ["a", "-", "c"])
    #expect(list.count == 2)
  }

  @Test func removingTwiceChangesNothingTheSecondTime() {
    var (list, entries, subscribers) = Self.subscribed("a")
    _ = list.remove(subscribers[0], from: &entries)
    let again = list.remove(subscribers[0], from: &entries)
    #expect(again.removed == nil)
    #expect(again.membershipObserver == nil)
    #expect(list.count == 0)
  }

  @Test func removedSlotsAreCompactedOnceTheyOutnumberLiveOnes() {
    var list = SubscriberList()
    var entries = EntryList()
    let subscribers = (0..<40).map { Subscriber("\($0)") }
    for subscriber in subscribers {
      _ = list.add(subscriber, at: CallSite(), to: &entries)
    }
    for subscriber in subscribers.prefix(21) {
      _ = list.remove(subscriber, from: &entries)
    }
    #expect(entries.count == 19, "compacted: only live entries are left")
    #expect(entries.enumerated().allSatisfy { index, entry in entry?.slot == Int32(index) })
    #expect(Self.names(entries).first == "21")
  }

  @Test func subscribingAsTheListDoublesAsksForAPruneOnce() {
    var list = SubscriberList()
    var entries = EntryList()
    var prunes: [Int] = []
    for index in 1...SubscriberList.minimumPruneThreshold * 2 {
      if list.add(Subscriber("\(index)"), at: CallSite(), to: &entries).shouldPrune {
        prunes.append(index)
      }
    }
    #expect(prunes == [SubscriberList.minimumPruneThreshold, SubscriberList.minimumPruneThreshold * 2])
  }

  @Test func removingDeadEntriesReportsOnlyWhenOneWasStillThereAndKeepsThemForTheCaller() {
    var (list, entries, subscribers) = Self.subscribed("a", "b")
    let first = list.removeDead([subscribers[0]], from: &entries)
    #expect(first.membershipObserver != nil)
    #expect(first.removedDead?.count == 1)
    #expect(list.removeDead([subscribers[0]], from: &entries).membershipObserver == nil)
    #expect(list.count == 1)
    #expect(Self.names(entries) == ["-", "b"])
  }
}

/// The numbering of call sites that keeps a subscriber entry small.
@Suite struct CallSiteTableTests {
  @Test func eachCallSiteGetsOneNumberAndIsFoundByIt() {
    var table = CallSiteTable()
    // More sites than the linear search covers, so the dictionary is built and used too.
    let sites = (1...40).map { CallSite(fileID: #fileID, line: UInt($0)) }
    let numbers = sites.map { table.id(for: $0) }
    #expect(Set(numbers).count == sites.count)
    #expect(sites.map { table.id(for: $0) } == numbers, "asking again gives the same numbers")
    #expect(zip(sites, numbers).allSatisfy { site, number in table.site(number) == site })
    #expect(table.id(for: CallSite(fileID: "Other/File.swift", line: 1)) == UInt32(sites.count))
  }
}

// The name is immutable; the rest is the base entry's.
extension SubscriberListTests.Subscriber: @unchecked Sendable {}
