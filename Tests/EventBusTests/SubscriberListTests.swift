import Testing

@testable import EventBus

/// The subscriber list: who is subscribed, in order, the list a round delivers to, and what each change hands back
/// to be released after the lock.
@Suite struct SubscriberListTests {
  private typealias Harness = DeliveryHarness
  private let me = ThreadIdentity.current
  private let other = parkedThreadIdentity

  @Test func cancelOnTheDeliveringThreadSkipsTheEntryForTheRestOfTheRound() {
    var (harness, subscribers) = Harness.subscribed("a", "b")
    _ = harness.send(1, from: me)
    let change = harness.list.cancel(subscribers[1], from: me)
    #expect(change.isChanged)
    #expect(change.removed === subscribers[1])
    let isSkipped = subscribers[1].isSkipped(DeliveryHolder(thread: me))
    #expect(isSkipped)
    #expect(subscribers[1].isRemoved)
    #expect(harness.list.count == 1)
  }

  @Test func cancelFromAnotherThreadDuringARoundDoesNotTouchTheRoundFlags() {
    var (harness, subscribers) = Harness.subscribed("a", "b")
    _ = harness.send(1, from: me)
    #expect(harness.list.cancel(subscribers[0], from: other).isChanged)
    #expect(!subscribers[0].holderOnlySkipped, "only the delivering thread reads and writes the round flags")
    #expect(subscribers[0].isRemoved)
  }

  @Test func cancellingTwiceChangesNothingTheSecondTime() {
    var (harness, subscribers) = Harness.subscribed("a")
    #expect(harness.list.cancel(subscribers[0], from: me).isChanged)
    let again = harness.list.cancel(subscribers[0], from: me)
    #expect(!again.isChanged)
    #expect(again.removed == nil)
    #expect(harness.list.count == 0)
  }

  @Test func removedSlotsAreCompactedOnceTheyOutnumberLiveOnes() {
    var list = SubscriberList()
    let subscribers = (0..<40).map { Harness.Subscriber("\($0)") }
    for subscriber in subscribers {
      _ = list.add(subscriber, at: CallSite())
    }
    for subscriber in subscribers.prefix(21) {
      _ = list.cancel(subscriber, from: me)
    }
    #expect(list.entries.count == 19, "compacted: only live entries are left")
    #expect(list.entries.enumerated().allSatisfy { index, entry in entry?.slot == Int32(index) })
    #expect(Harness.names(list.entries).first == "21")
  }

  @Test func subscribingAsTheListDoublesAsksForAPruneOnce() {
    var list = SubscriberList()
    var prunes: [Int] = []
    for index in 1...SubscriberList.minimumPruneThreshold * 2 {
      if list.add(Harness.Subscriber("\(index)"), at: CallSite()).shouldPrune {
        prunes.append(index)
      }
    }
    #expect(prunes == [SubscriberList.minimumPruneThreshold, SubscriberList.minimumPruneThreshold * 2])
  }

  @Test func removingDeadEntriesReportsOnlyWhenOneWasStillThere() {
    var (harness, subscribers) = Harness.subscribed("a", "b")
    #expect(harness.list.removeDead([subscribers[0]]).isChanged)
    #expect(!harness.list.removeDead([subscribers[0]]).isChanged)
    #expect(harness.list.count == 1)
  }

  // MARK: The round's list and the lock-free send

  @Test func changesOnAnIdleOutputAreMadeInPlaceAndLeaveTheLatchFree() {
    var (harness, subscribers) = Harness.subscribed("a", "b", "c")
    _ = harness.list.cancel(subscribers[1], from: other)
    #expect(harness.roundNames == ["a", "-", "c"])
    #expect(harness.currentNames == ["a", "-", "c"])
    #expect(harness.list.latch.claims(for: me), "nothing is left pending or blocking a claim")
  }

  @Test func aSubscriberAddedWhileALockFreeSendDeliversWaitsForTheRoundToEnd() {
    var (harness, _) = Harness.subscribed("a")
    let latch = harness.list.latch
    #expect(latch.claims(for: me), "a send claims the delivery with no lock")
    _ = harness.list.add(Harness.Subscriber("b"), at: CallSite())
    #expect(harness.roundNames == ["a"], "the round's list is frozen")
    #expect(harness.currentNames == ["a", "b"], "counting sees the change at once")
    #expect(!latch.releases(by: me), "the holder must install the changed list")
    let next = harness.finishRound(by: me)
    #expect(next.isIdle)
    #expect(harness.roundNames == ["a", "b"])
    #expect(next.change.retired.map(Harness.names) == ["a"], "the old list is released with no lock held")
    #expect(!harness.list.isDelivering)
  }

  @Test func aDeadEntryOfARoundWhoseListWasReplacedIsRemovedFromTheNewList() {
    var (harness, subscribers) = Harness.subscribed("a", "b")
    #expect(harness.list.latch.claims(for: me))
    _ = harness.list.add(Harness.Subscriber("c"), at: CallSite())
    subscribers[0].markDead(DeliveryHolder(thread: me))
    let next = harness.finishRound(deadFound: true, by: me)
    #expect(next.isIdle)
    #expect(harness.roundNames == ["-", "b", "c"])
    #expect(next.change.retired.map(Harness.names) == ["a", "b"], "the replaced list keeps the dead entry")
    #expect(subscribers[0].isRemoved)
    #expect(harness.list.count == 2)
  }

  @Test func changesMadeTwiceInOneRoundAreBothInstalled() {
    var (harness, subscribers) = Harness.subscribed("a", "b")
    #expect(harness.list.latch.claims(for: me))
    _ = harness.list.add(Harness.Subscriber("c"), at: CallSite())
    _ = harness.list.cancel(subscribers[1], from: other)
    _ = harness.list.add(Harness.Subscriber("d"), at: CallSite())
    #expect(harness.roundNames == ["a", "b"])
    _ = harness.finishRound(by: me)
    #expect(harness.roundNames == ["a", "-", "c", "d"])
    let slotsMatch = harness.list.entries.enumerated().allSatisfy { index, entry in
      entry.map { $0.slot == Int32(index) } ?? true
    }
    #expect(slotsMatch)
  }

  /// A dead entry found by a lock-free round is removed from the round's list in place. The list the round read is
  /// kept by the change, so the entry, its handler and the handler's captures are released by the caller, after
  /// unlocking, and not by the removal under the lock.
  @Test func aDeadEntryRemovedInPlaceIsReleasedOnlyWhenTheCallerDropsTheChange() {
    var (harness, _) = Harness.subscribed("a")
    weak var weakDead: Harness.Subscriber?
    do {
      let dead = Harness.Subscriber("dead")
      weakDead = dead
      _ = harness.list.add(dead, at: CallSite())
      dead.markDead(DeliveryHolder(thread: me))
    }
    #expect(harness.list.latch.claims(for: me))
    var step = harness.finishRound(deadFound: true, by: me)
    #expect(harness.roundNames == ["a", "-"])
    #expect(step.change.isChanged)
    #expect(weakDead != nil, "the change is the dead entry's last owner")
    step = DeliveryHarness.Step(.idle)
    #expect(weakDead == nil)
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
