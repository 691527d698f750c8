import Foundation
import Testing

@testable import EventBus

/// Every transition of the delivery state machine, one at a time, including interleavings too narrow to hit
/// reliably with threads.
@Suite struct DeliveryStateMachineTests {
  typealias Machine = DeliveryStateMachine<Int>

  final class Member: DeliveryMember {
    let name: String

    init(_ name: String) {
      self.name = name
    }
  }

  private let me = ThreadIdentity.current

  private func subscribed(_ names: String..., replay: Int = 0) -> (Machine, [Member]) {
    var machine = Machine(replayLimit: replay)
    let members = names.map(Member.init)
    for member in members {
      _ = machine.subscribe(member, at: CallSite(), from: me)
    }
    return (machine, members)
  }

  private func names(_ snapshot: Machine.Snapshot) -> [String] {
    snapshot.map { ($0 as? Member)?.name ?? "-" }
  }

  @Test func aSendOnAnIdleMachineMakesTheSenderTheDeliverer() {
    var (machine, _) = subscribed("a", "b")
    var leftovers = Machine.Leftovers()
    let action = machine.send(1, from: me, leftovers: &leftovers)
    guard case .deliver(let event, let snapshot) = action else {
      Issue.record("expected .deliver, got \(action)")
      return
    }
    #expect(event == 1)
    #expect(names(snapshot) == ["a", "b"])
    #expect(machine.isDelivering)
    #expect(machine.pendingCount == 0)
  }

  @Test func aSendDuringARoundIsQueuedForTheDeliverer() {
    var (machine, _) = subscribed("a")
    var leftovers = Machine.Leftovers()
    _ = machine.send(1, from: me, leftovers: &leftovers)
    let second = machine.send(2, from: parkedThreadIdentity, leftovers: &leftovers)
    let third = machine.send(3, from: me, leftovers: &leftovers)
    #expect(second.isIdle && third.isIdle)
    #expect(machine.pendingCount == 2)
  }

  @Test func theEndOfARoundHandsOverQueuedEventsInOrderThenFreesTheDelivery() {
    var (machine, _) = subscribed("a")
    var leftovers = Machine.Leftovers()
    guard case .deliver = machine.send(1, from: me, leftovers: &leftovers) else {
      Issue.record("expected .deliver")
      return
    }
    _ = machine.send(2, from: parkedThreadIdentity, leftovers: &leftovers)
    _ = machine.send(3, from: parkedThreadIdentity, leftovers: &leftovers)
    var delivered: [Int] = []
    var next = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    while case .deliver(let event, _) = next {
      delivered.append(event)
      next = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    }
    #expect(delivered == [2, 3])
    #expect(next.isIdle)
    #expect(!machine.isDelivering)
    #expect(machine.pendingCount == 0)
    #expect(leftovers.membershipObserver == nil)
  }

  @Test func aSubscriberAddedDuringARoundIsInTheNextRoundOnly() {
    var (machine, _) = subscribed("a")
    var leftovers = Machine.Leftovers()
    guard case .deliver(_, let first) = machine.send(1, from: me, leftovers: &leftovers) else {
      Issue.record("expected .deliver")
      return
    }
    _ = machine.subscribe(Member("b"), at: CallSite(), from: me)
    _ = machine.send(2, from: me, leftovers: &leftovers)
    #expect(names(first) == ["a"])
    guard case .deliver(_, let second) = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    else {
      Issue.record("expected .deliver")
      return
    }
    #expect(names(second) == ["a", "b"])
  }

  @Test func subscribingOnAnIdleMachineWithHistoryHandsTheReplayOverAtOnce() {
    var (machine, _) = subscribed("a", replay: 2)
    var leftovers = Machine.Leftovers()
    for event in 1...3 {
      guard case .deliver = machine.send(event, from: me, leftovers: &leftovers) else {
        Issue.record("expected .deliver")
        return
      }
      _ = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    }
    #expect(leftovers.droppedFromReplay == 1, "the event that left the window is handed out to be released")
    let late = Member("late")
    let action = machine.subscribe(late, at: CallSite(), from: me)
    #expect(action.replay.map(Array.init) == [2, 3])
    #expect(machine.isDelivering, "the subscriber now holds the delivery while it replays")
    let next = machine.finishReplay(to: late, deadFound: false, by: me, leftovers: &leftovers)
    #expect(next.isIdle)
    #expect(!machine.isDelivering)
  }

  @Test func subscribingDuringARoundQueuesTheReplayAheadOfQueuedEvents() {
    var (machine, _) = subscribed("a", replay: 1)
    var leftovers = Machine.Leftovers()
    guard case .deliver = machine.send(1, from: me, leftovers: &leftovers) else {
      Issue.record("expected .deliver")
      return
    }
    _ = machine.send(2, from: parkedThreadIdentity, leftovers: &leftovers)
    let late = Member("late")
    let action = machine.subscribe(late, at: CallSite(), from: parkedThreadIdentity)
    #expect(action.replay == nil, "another thread holds the delivery")
    let next = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    guard case .replay(let events, let member) = next else {
      Issue.record("expected .replay, got \(next)")
      return
    }
    #expect(Array(events) == [1])
    #expect(member === late)
    guard
      case .deliver(let event, let second) = machine.finishReplay(
        to: late, deadFound: false, by: me, leftovers: &leftovers)
    else {
      Issue.record("expected .deliver")
      return
    }
    #expect(event == 2)
    #expect(names(second) == ["a", "late"])
  }

  @Test func aReplayWhoseSubscriberWasCancelledBeforeItsTurnIsHandedOutToBeReleased() {
    var (machine, _) = subscribed("a", replay: 1)
    var leftovers = Machine.Leftovers()
    guard case .deliver = machine.send(1, from: me, leftovers: &leftovers) else {
      Issue.record("expected .deliver")
      return
    }
    let late = Member("late")
    _ = machine.subscribe(late, at: CallSite(), from: parkedThreadIdentity)
    _ = machine.roster.cancel(late, from: parkedThreadIdentity)
    let next = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    #expect(next.isIdle)
    #expect(leftovers.cancelledReplays?.map { $0.member === late } == [true])
  }

  @Test func cancelOnTheDeliveringThreadSkipsTheMemberForTheRestOfTheRound() {
    var (machine, members) = subscribed("a", "b")
    var leftovers = Machine.Leftovers()
    _ = machine.send(1, from: me, leftovers: &leftovers)
    let change = machine.roster.cancel(members[1], from: me)
    #expect(change.isChanged)
    #expect(members[1].isSkipped)
    #expect(members[1].isRemoved)
    #expect(machine.memberCount == 1)
  }

  @Test func cancelFromAnotherThreadDuringARoundDoesNotTouchTheRoundFlags() {
    var (machine, members) = subscribed("a", "b")
    var leftovers = Machine.Leftovers()
    _ = machine.send(1, from: me, leftovers: &leftovers)
    let change = machine.roster.cancel(members[0], from: parkedThreadIdentity)
    #expect(change.isChanged)
    #expect(!members[0].isSkipped, "only the delivering thread reads and writes the round flags")
    #expect(members[0].isRemoved)
  }

  @Test func cancellingTwiceChangesNothingTheSecondTime() {
    var (machine, members) = subscribed("a")
    #expect(machine.roster.cancel(members[0], from: me).isChanged)
    #expect(!machine.roster.cancel(members[0], from: me).isChanged)
    #expect(machine.memberCount == 0)
  }

  @Test func aDeadResponderFoundDuringARoundIsRemovedAndReported() {
    var (machine, members) = subscribed("a", "b", "c")
    machine.membershipObserver = {}
    var leftovers = Machine.Leftovers()
    guard case .deliver = machine.send(1, from: me, leftovers: &leftovers) else {
      Issue.record("expected .deliver")
      return
    }
    members[1].isDead = true
    let next = machine.finishRound(deadFound: true, by: me, leftovers: &leftovers)
    #expect(next.isIdle)
    #expect(members[1].isRemoved)
    #expect(machine.memberCount == 2)
    #expect(leftovers.membershipObserver != nil)
    #expect(names(machine.members) == ["a", "-", "c"])
  }

  @Test func aDeadResponderFoundDuringItsReplayIsRemoved() {
    var (machine, _) = subscribed("a", replay: 1)
    var leftovers = Machine.Leftovers()
    if case .deliver = machine.send(1, from: me, leftovers: &leftovers) {
      _ = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    }
    let late = Member("late")
    _ = machine.subscribe(late, at: CallSite(), from: me)
    late.isDead = true
    _ = machine.finishReplay(to: late, deadFound: true, by: me, leftovers: &leftovers)
    #expect(late.isRemoved)
    #expect(machine.memberCount == 1)
  }

  @Test func removedSlotsAreCompactedOnceTheyOutnumberLiveOnes() {
    var machine = Machine(replayLimit: 0)
    let members = (0..<40).map { Member("\($0)") }
    for member in members {
      _ = machine.subscribe(member, at: CallSite(), from: me)
    }
    for member in members.prefix(21) {
      _ = machine.roster.cancel(member, from: me)
    }
    #expect(machine.members.count == 19, "compacted: only live members are left")
    #expect(machine.members.enumerated().allSatisfy { index, member in member?.slot == Int32(index) })
    #expect(names(machine.members).first == "21")
  }

  @Test func subscribingAsTheListDoublesAsksForAPruneOnce() {
    var machine = Machine(replayLimit: 0)
    var prunes: [Int] = []
    for index in 1...DeliveryRoster.minimumPruneThreshold * 2 {
      if machine.subscribe(Member("\(index)"), at: CallSite(), from: me).shouldPrune {
        prunes.append(index)
      }
    }
    #expect(prunes == [DeliveryRoster.minimumPruneThreshold, DeliveryRoster.minimumPruneThreshold * 2])
  }

  // MARK: The published list and the lock-free send

  private func names(published machine: Machine) -> [String] {
    names(machine.roster.published)
  }

  @Test func changesOnAnIdleMachineAreMadeInPlaceAndLeaveTheLatchFree() {
    var (machine, members) = subscribed("a", "b", "c")
    _ = machine.roster.cancel(members[1], from: parkedThreadIdentity)
    #expect(names(published: machine) == ["a", "-", "c"])
    #expect(names(machine.members) == ["a", "-", "c"])
    #expect(machine.roster.latch.tryClaim(for: me), "nothing is left pending or blocking a claim")
  }

  @Test func aSubscriberAddedWhileALockFreeSendDeliversIsStagedUntilTheRoundEnds() {
    var (machine, _) = subscribed("a")
    let latch = machine.roster.latch
    #expect(latch.tryClaim(for: me), "a send claims the delivery with no lock")
    _ = machine.subscribe(Member("b"), at: CallSite(), from: parkedThreadIdentity)
    #expect(names(published: machine) == ["a"], "the round's list is frozen")
    #expect(names(machine.members) == ["a", "b"], "counting sees the change at once")
    #expect(!latch.tryRelease(by: me), "the holder must install the staged list")
    var leftovers = Machine.Leftovers()
    let next = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    #expect(next.isIdle)
    #expect(names(published: machine) == ["a", "b"])
    #expect(leftovers.retiredMembers.map(names) == ["a"], "the old list is released with no lock held")
    #expect(!machine.isDelivering)
  }

  @Test func aCancelFromAnotherThreadDuringALockFreeRoundReachesTheNextRoundOnly() {
    var (machine, members) = subscribed("a", "b")
    #expect(machine.roster.latch.tryClaim(for: me))
    _ = machine.roster.cancel(members[0], from: parkedThreadIdentity)
    var leftovers = Machine.Leftovers()
    _ = machine.send(2, from: parkedThreadIdentity, leftovers: &leftovers)
    #expect(names(published: machine) == ["a", "b"])
    #expect(!members[0].isSkipped)
    guard case .deliver(let event, let list) = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    else {
      Issue.record("expected .deliver")
      return
    }
    #expect(event == 2)
    #expect(names(list) == ["-", "b"])
    #expect(machine.isDelivering, "the holder keeps the delivery for the queued event")
    #expect(machine.finishRound(deadFound: false, by: me, leftovers: &leftovers).isIdle)
    #expect(!machine.isDelivering)
  }

  @Test func aDeadMemberOfARoundWhoseListWasReplacedIsRemovedFromTheNewList() {
    var (machine, members) = subscribed("a", "b")
    #expect(machine.roster.latch.tryClaim(for: me))
    _ = machine.subscribe(Member("c"), at: CallSite(), from: parkedThreadIdentity)
    members[0].isDead = true
    var leftovers = Machine.Leftovers()
    #expect(machine.finishRound(deadFound: true, by: me, leftovers: &leftovers).isIdle)
    #expect(names(published: machine) == ["-", "b", "c"])
    #expect(members[0].isRemoved)
    #expect(machine.memberCount == 2)
  }

  @Test func changesStagedTwiceInOneRoundAreBothInstalled() {
    var (machine, members) = subscribed("a", "b")
    #expect(machine.roster.latch.tryClaim(for: me))
    _ = machine.subscribe(Member("c"), at: CallSite(), from: parkedThreadIdentity)
    _ = machine.roster.cancel(members[1], from: parkedThreadIdentity)
    _ = machine.subscribe(Member("d"), at: CallSite(), from: me)
    #expect(names(published: machine) == ["a", "b"])
    var leftovers = Machine.Leftovers()
    _ = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers)
    #expect(names(published: machine) == ["a", "-", "c", "d"])
    #expect(machine.members.enumerated().allSatisfy { index, member in member.map { $0.slot == Int32(index) } ?? true })
  }

  @Test func aSendOnTheLockedPathWhileALockFreeSendDeliversIsQueuedForIt() {
    var (machine, _) = subscribed("a")
    #expect(machine.roster.latch.tryClaim(for: me))
    var leftovers = Machine.Leftovers()
    #expect(machine.send(2, from: parkedThreadIdentity, leftovers: &leftovers).isIdle)
    #expect(!machine.roster.latch.tryRelease(by: me), "the queued event keeps the holder from letting go")
    guard case .deliver(let event, _) = machine.finishRound(deadFound: false, by: me, leftovers: &leftovers) else {
      Issue.record("expected .deliver")
      return
    }
    #expect(event == 2)
  }

  @Test func removingDeadMembersReportsOnlyWhenOneWasStillThere() {
    var (machine, members) = subscribed("a", "b")
    #expect(machine.roster.removeDead([members[0]]).isChanged)
    #expect(!machine.roster.removeDead([members[0]]).isChanged)
    #expect(machine.memberCount == 1)
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

// The machine's bookkeeping is `DeliveryMember`'s; the name is immutable.
extension DeliveryStateMachineTests.Member: @unchecked Sendable {}

extension DeliveryStateMachine.NextAction {
  fileprivate var isIdle: Bool {
    if case .idle = self { return true }
    return false
  }
}

extension MembershipChange {
  fileprivate var isChanged: Bool {
    if case .changed = self { return true }
    return false
  }
}
