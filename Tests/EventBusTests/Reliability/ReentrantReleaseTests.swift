import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// G8: every object of the user's that the library releases (a responder's handler and what it captures, an event, a
/// trace hook, a token, an operator's closure or kept event) is released with no lock held, on every path where the
/// library can release it. Each test gives the library ``ReenteringObject``s, whose `deinit` calls back into the same
/// output (or hub), and counts exactly the `deinit`s that ran to the end.
///
/// Released under a lock, such an object traps in a debug build ("a lock was taken recursively") and deadlocks in a
/// release build, where the watchdog turns the deadlock into a failure. A test whose watchdog fired returns at once,
/// and abandons what would call into the output when released: its stuck thread may hold the output's lock.
@Suite struct ReentrantReleaseTests {
  /// A responder that does nothing: the tests only let it deinitialise.
  final class Screen: Sendable {}

  /// An event that is a class, compared by its text. Releasing it releases what it holds.
  final class Note: Equatable, Sendable {
    let text: String
    let contents: ReenteringObject?

    init(_ text: String, holding contents: ReenteringObject? = nil) {
      self.text = text
      self.contents = contents
    }

    static func == (lhs: Note, rhs: Note) -> Bool { lhs.text == rhs.text }
  }

  /// An event that is a struct holding an object.
  struct Parcel: Sendable {
    let number: Int
    let contents: ReenteringObject?
  }

  /// Subscribes a responder that has deinitialised when this returns. Its handler holds `object`, and nothing else
  /// does: the library releases it when it removes the dead subscription.
  static func subscribeDeadResponder<Stream: EventStream>(to stream: Stream, holding object: ReenteringObject) {
    stream.subscribe(Screen()) { _, _ in withExtendedLifetime(object) {} }
  }

  /// What runs before each round of a lockstep test: `perRound` responders of `stream` die, each leaving a re-entering
  /// object in its handler.
  static func deadResponders<Stream: EventStream>(
    _ perRound: Int, of stream: Stream, journal: ReentryJournal, reentry: Reentry
  ) -> @Sendable (_ round: Int) -> Void {
    { round in
      for index in 0..<perRound {
        subscribeDeadResponder(
          to: stream, holding: ReenteringObject("\(round).\(index)", journal: journal, reentry: reentry))
      }
    }
  }

  /// A dead responder's handler holds a re-entering object; one `send` on `output` finds the responder gone.
  private func expectDeadResponderReleasedWithNoLockHeld(
    by output: Output<Int>, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let journal = ReentryJournal()
    let received = Log<Int>()
    let token = output.subscribe { received.append($0) }
    Self.subscribeDeadResponder(
      to: output, holding: ReenteringObject("captured", journal: journal, reentry: .output(output, sending: 99)))
    let finished = await runOnThread(timeout: 60, sourceLocation: sourceLocation) { output.send(1) }
    #expect(finished, "G8: releasing a dead responder's handler deadlocked", sourceLocation: sourceLocation)
    guard finished else { return abandon(token) }
    #expect(journal.all == [.init(name: "captured", subscriberCount: 1)], sourceLocation: sourceLocation)
    #expect(received.elements == [1, 99], "the deinit's send was not delivered", sourceLocation: sourceLocation)
    #expect(output.subscriberCount == 1, sourceLocation: sourceLocation)
    withExtendedLifetime(token) {}
  }

  // MARK: - Send

  @Test func tokenHeldOnlyByADeadRespondersHandlerIsCancelledWithNoLockHeld() async {
    // The screen is gone and its subscription's handler holds the only reference to a token of the same output: the
    // send that finds the screen gone releases the token, whose deinit cancels its subscription.
    let output = Output<Int>()
    let received = Log<Int>()
    let finished = await runOnThread(timeout: 60) {
      var helper: EventSubscription? = output.subscribe { received.append($0) }
      do {
        let screen = Screen()
        output.subscribe(screen) { [helper] _, _ in _ = helper }
      }
      helper = nil
      output.send(1)
      output.send(2)
    }
    #expect(finished, "G8: cancelling a token released with a dead responder's handler deadlocked")
    guard finished else { return }
    #expect(received.elements == [1], "the token, released after event 1, did not end its subscription")
    #expect(output.subscriberCount == 0)
  }

  @Test func deadRespondersCapturesAreReleasedWithNoLockHeldByTheLockFreeSend() async {
    // No replay window and no trace: the send claims the delivery with no lock.
    await expectDeadResponderReleasedWithNoLockHeld(by: Output<Int>())
  }

  @Test func deadRespondersCapturesAreReleasedWithNoLockHeldByASendWithATrace() async {
    let output = Output<Int>()
    let traced = Log<Int>()
    output.trace = { traced.append($0) }
    await expectDeadResponderReleasedWithNoLockHeld(by: output)
    #expect(traced.elements == [1, 99])
  }

  @Test func deadRespondersCapturesAreReleasedWithNoLockHeldByASendWithAReplayWindow() async {
    await expectDeadResponderReleasedWithNoLockHeld(by: Output<Int>(replay: 2))
  }

  @Test func deadRespondersFoundByConcurrentSendsAreEachReleasedOnceWithNoLockHeld() async {
    // Two threads send together, so one delivers while the other queues; before each round, three responders die.
    let output = Output<Int>()
    let journal = ReentryJournal()
    let received = Counter()
    let token = output.subscribe { _ in received.increment() }
    let rounds = stress(300)
    let perRound = 3
    let prepare = Self.deadResponders(perRound, of: output, journal: journal, reentry: .output(output, sending: -1))
    let finished = await runInLockstep(threads: 2, rounds: rounds, prepare: prepare) { _, round in
      output.send(round)
    }
    #expect(finished, "G8: releasing dead responders' handlers during concurrent sends deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.count == rounds * perRound)
    #expect(received.current == 2 * rounds + rounds * perRound, "every send, and every deinit's, delivered once")
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(token) {}
  }

  @Test func responderWhoseLastReferenceGoesDuringItsDeliveryIsReleasedWithNoLockHeld() async {
    // The delivery holds its responder while the handler runs, so the handler's drop of the last other reference
    // leaves the delivery's release as the last: immediately, and in a queue's drain.
    let output = Output<Int>()
    let journal = ReentryJournal()
    let reentry = Reentry.output(output, sending: 99)
    let queue = DispatchQueue(label: "drain")
    let immediate = Slot(ReenteringObject("immediate", journal: journal, reentry: reentry))
    let queued = Slot(ReenteringObject("queued", journal: journal, reentry: reentry))
    output.subscribe(immediate.value!) { _, event in
      if event == 1 { _ = immediate.take() }
    }
    output.subscribe(queued.value!, on: .queue(queue)) { _, event in
      if event == 1 { _ = queued.take() }
    }
    let finished = await runOnThread(timeout: 60) {
      output.send(1)
      queue.sync {}
    }
    #expect(finished, "G8: releasing a responder during its delivery deadlocked")
    guard finished else { return abandon(immediate, queued) }
    #expect(await suspendUntil { journal.count == 2 }, "released: \(journal.names)")
    #expect(journal.names.sorted() == ["immediate", "queued"])
  }

  @Test func traceHookReplacedWhileAnotherThreadSendsIsReleasedWithNoLockHeld() async {
    // A send copies the hook it calls, so its copy may be the last one: released when that send ends.
    let output = Output<Int>()
    let journal = ReentryJournal()
    let received = Counter()
    let token = output.subscribe { _ in received.increment() }
    let rounds = stress(300)
    let finished = await runConcurrently(threads: 2) { thread in
      for round in 0..<rounds {
        if thread == 0 {
          output.send(round)
        } else {
          let object = ReenteringObject("hook \(round)", journal: journal, reentry: .output(output, sending: -1))
          output.trace = { _ in withExtendedLifetime(object) {} }
        }
      }
    }
    #expect(finished, "G8: releasing a trace hook deadlocked")
    guard finished else { return abandon(token) }
    output.trace = nil
    #expect(journal.count == rounds)
    #expect(received.current == 2 * rounds, "every send, and every deinit's, delivered once")
    withExtendedLifetime(token) {}
  }

  // MARK: - Events and replay

  @Test func eventsLeavingTheReplayWindowAreReleasedWithNoLockHeld() async {
    // The events are objects; the replay window keeps the last two, so it holds the last reference to older ones.
    let output = Output<Note>(replay: 2)
    let journal = ReentryJournal()
    let plain = Note("plain")
    let received = Counter()
    let token = output.subscribe { _ in received.increment() }
    let perThread = stress(300)
    let finished = await runConcurrently(threads: 2) { thread in
      for index in 0..<perThread {
        let object = ReenteringObject("\(thread).\(index)", journal: journal, reentry: .output(output, sending: plain))
        output.send(Note("\(thread).\(index)", holding: object))
      }
    }
    #expect(finished, "G8: releasing an event that left the replay window deadlocked")
    guard finished else { return abandon(token) }
    output.send(plain)
    output.send(plain)  // the window now holds only plain notes
    #expect(journal.count == 2 * perThread)
    #expect(received.current == 2 * perThread + 2 * perThread + 2, "every send, and every deinit's, delivered once")
    withExtendedLifetime(token) {}
  }

  @Test func eventsQueuedBehindAnotherThreadsDeliveryAreReleasedWithNoLockHeld() async {
    let output = Output<Parcel>()
    let journal = ReentryJournal()
    let plain = Parcel(number: -1, contents: nil)
    let received = Counter()
    let token = output.subscribe { _ in received.increment() }
    let perThread = stress(300)
    let finished = await runConcurrently(threads: 2) { thread in
      for index in 0..<perThread {
        let object = ReenteringObject("\(thread).\(index)", journal: journal, reentry: .output(output, sending: plain))
        output.send(Parcel(number: index, contents: object))
      }
    }
    #expect(finished, "G8: releasing a queued event deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.count == 2 * perThread)
    #expect(received.current == 2 * (2 * perThread), "every send, and every deinit's, delivered once")
    withExtendedLifetime(token) {}
  }

  @Test func replayForASubscriberWhoseResponderDiedBeforeItsTurnIsReleasedWithNoLockHeld() async {
    // Subscribed from a handler, the responder waits for the round to end to receive its replay window, and it has
    // deinitialised by then: the replay finds it gone.
    let output = Output<Int>(replay: 1)
    let journal = ReentryJournal()
    let received = Log<Int>()
    output.send(1)
    let token = output.subscribe { event in
      received.append(event)
      guard event == 2 else { return }
      Self.subscribeDeadResponder(
        to: output, holding: ReenteringObject("late", journal: journal, reentry: .output(output, sending: 99)))
    }
    let finished = await runOnThread(timeout: 60) {
      output.send(2)
      output.send(3)
      output.pruneDeadSubscribers()
    }
    #expect(finished, "G8: releasing the handler of a subscriber found dead by its replay deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.names == ["late"])
    #expect(received.elements.sorted() == [1, 2, 3, 99])
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(token) {}
  }

  @Test func replayOfASubscriberCancelledBeforeItsTurnIsReleasedWithNoLockHeld() async {
    let output = Output<Int>(replay: 2)
    let journal = ReentryJournal()
    output.send(1)
    let token = output.subscribe { event in
      guard event == 2 else { return }
      let late = output.subscribe {
        [object = ReenteringObject("cancelled", journal: journal, reentry: .output(output, sending: 99))] _ in
        withExtendedLifetime(object) {}
      }
      late.cancel()
    }
    let finished = await runOnThread(timeout: 60) { output.send(2) }
    #expect(finished, "G8: releasing a cancelled subscriber's waiting replay deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.names == ["cancelled"])
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(token) {}
  }

  // MARK: - Cancel

  @Test func cancellingASubscriptionWhileAnotherThreadSendsReleasesItsHandlerWithNoLockHeld() async {
    // Before each round a token-owned and a responder-owned subscription are made; one thread cancels both while the
    // other sends.
    let output = Output<Int>()
    let journal = ReentryJournal()
    let received = Counter()
    let token = output.subscribe { _ in received.increment() }
    let responder = Screen()
    let tokens = Slot<EventSubscription>()
    let handles = Slot<ResponderSubscription>()
    let rounds = stress(300)
    let reentry = Reentry.output(output, sending: -1)
    let prepare: @Sendable (Int) -> Void = { round in
      tokens.put(
        output.subscribe { [object = ReenteringObject("token \(round)", journal: journal, reentry: reentry)] _ in
          withExtendedLifetime(object) {}
        })
      handles.put(
        output.subscribe(responder) {
          [object = ReenteringObject("handle \(round)", journal: journal, reentry: reentry)] _, _ in
          withExtendedLifetime(object) {}
        })
    }
    let finished = await runInLockstep(threads: 2, rounds: rounds, prepare: prepare) { thread, round in
      if thread == 0 {
        output.send(round)
      } else {
        tokens.take()?.cancel()
        handles.take()?.cancel()
      }
    }
    #expect(finished, "G8: releasing a cancelled subscription's handler deadlocked")
    guard finished else { return abandon(token, tokens, handles) }
    #expect(journal.count == 2 * rounds)
    #expect(received.current == rounds + 2 * rounds, "every send, and every deinit's, delivered once")
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(token) {}
  }

  @Test func cancelCalledFromADeinitReleasesTheCancelledHandlerWithNoLockHeld() async {
    // A chain: "a" cancels the token whose handler holds "b", which cancels the token whose handler holds "c". A
    // handler drops "a" in the middle of a delivery.
    let output = Output<Int>()
    let journal = ReentryJournal()
    let reentry = Reentry.output(output, sending: 99)
    let last = output.subscribe { [object = ReenteringObject("c", journal: journal, reentry: reentry)] _ in
      withExtendedLifetime(object) {}
    }
    let middle = output.subscribe {
      [object = ReenteringObject("b", journal: journal, reentry: reentry, cancelling: last)] _ in
      withExtendedLifetime(object) {}
    }
    let first = Slot(ReenteringObject("a", journal: journal, reentry: reentry, cancelling: middle))
    let trigger = output.subscribe { event in
      if event == 1 { _ = first.take() }
    }
    let finished = await runOnThread(timeout: 60) { output.send(1) }
    #expect(finished, "G8: a cancel() from a deinit deadlocked")
    guard finished else { return abandon(last, middle, first, trigger) }
    #expect(journal.names.sorted() == ["a", "b", "c"])
    #expect(output.subscriberCount == 1)
    withExtendedLifetime(trigger) {}
  }

  @Test func tokenReleasedInsideItsOwnHandlerReleasesTheHandlerWithNoLockHeld() async {
    let output = Output<Int>()
    let journal = ReentryJournal()
    let received = Log<Int>()
    let watcher = output.subscribe { received.append($0) }
    let slot = Slot<EventSubscription>()
    slot.put(
      output.subscribe {
        [object = ReenteringObject("self-released", journal: journal, reentry: .output(output, sending: 99))] _ in
        withExtendedLifetime(object) {}
        _ = slot.take()
      })
    let finished = await runOnThread(timeout: 60) { output.send(1) }
    #expect(finished, "G8: releasing a token inside its handler deadlocked")
    guard finished else { return abandon(watcher, slot) }
    #expect(journal.all == [.init(name: "self-released", subscriberCount: 1)])
    #expect(received.elements == [1, 99])
    withExtendedLifetime(watcher) {}
  }

  // MARK: - Pruning

  @Test func pruneDeadSubscribersReleasesTheirHandlersWithNoLockHeld() async {
    let output = Output<Int>()
    let journal = ReentryJournal()
    for name in ["x", "y", "z"] {
      Self.subscribeDeadResponder(
        to: output, holding: ReenteringObject(name, journal: journal, reentry: .output(output, sending: 99)))
    }
    let finished = await runOnThread(timeout: 60) { output.pruneDeadSubscribers() }
    #expect(finished, "G8: pruning dead subscribers deadlocked")
    guard finished else { return }
    #expect(journal.names.sorted() == ["x", "y", "z"])
    #expect(output.occupiedCount == 0)
  }

  @Test func subscribingPrunesDeadHandlersWithNoLockHeld() async {
    // The subscribe that brings the list to the prune threshold prunes the dead responders that precede it.
    let output = Output<Int>()
    let journal = ReentryJournal()
    let dead = SubscriberList.minimumPruneThreshold - 1
    for index in 0..<dead {
      Self.subscribeDeadResponder(
        to: output, holding: ReenteringObject("\(index)", journal: journal, reentry: .output(output, sending: 99)))
    }
    #expect(journal.count == 0)
    let tokens = Slot<EventSubscription>()
    let finished = await runOnThread(timeout: 60) { tokens.put(output.subscribe { _ in }) }
    #expect(finished, "G8: the prune made by a subscribe deadlocked")
    guard finished else { return abandon(tokens) }
    #expect(journal.count == dead)
    #expect(output.occupiedCount == 1)
  }

  @Test func pruningWhileAnotherThreadSendsReleasesEachDeadHandlerOnce() async {
    let output = Output<Int>()
    let journal = ReentryJournal()
    let rounds = stress(300)
    let perRound = 3
    let prepare = Self.deadResponders(perRound, of: output, journal: journal, reentry: .output(output, sending: -1))
    let finished = await runInLockstep(threads: 2, rounds: rounds, prepare: prepare) { thread, round in
      if thread == 0 { output.send(round) } else { output.pruneDeadSubscribers() }
    }
    #expect(finished, "G8: pruning while sending deadlocked")
    guard finished else { return }
    #expect(journal.count == rounds * perRound)
    #expect(output.occupiedCount == 0)
  }

  // MARK: - Hub

  struct Ping: Sendable {
    let number: Int
  }

  @Test func hubPostReachingADeadResponderReleasesItsHandlerWithNoLockHeld() async {
    let hub = EventHub()
    let journal = ReentryJournal()
    let received = Log<Int>()
    let token = hub.subscribe(Ping.self) { received.append($0.number) }
    Self.subscribeDeadResponder(
      to: hub.events(of: Ping.self),
      holding: ReenteringObject("hub", journal: journal, reentry: .hub(hub, posting: Ping(number: 99))))
    let finished = await runOnThread(timeout: 60) { hub.post(Ping(number: 1)) }
    #expect(finished, "G8: a post that found a dead responder deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.all == [.init(name: "hub", subscriberCount: 1)])
    #expect(received.elements == [1, 99])
    withExtendedLifetime(token) {}
  }

  @Test func hubPostsFromTwoThreadsReleaseEachDeadHandlerOnce() async {
    let hub = EventHub()
    let journal = ReentryJournal()
    let received = Counter()
    let token = hub.subscribe(Ping.self) { _ in received.increment() }
    let rounds = stress(300)
    let perRound = 3
    let prepare = Self.deadResponders(
      perRound, of: hub.events(of: Ping.self), journal: journal, reentry: .hub(hub, posting: Ping(number: -1)))
    let finished = await runInLockstep(threads: 2, rounds: rounds, prepare: prepare) { _, round in
      hub.post(Ping(number: round))
    }
    #expect(finished, "G8: posts that found dead responders deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.count == rounds * perRound)
    #expect(received.current == 2 * rounds + rounds * perRound, "every post, and every deinit's, delivered once")
    withExtendedLifetime(token) {}
  }

  @Test func hubChannelReleasedWithItsLastSubscriptionReleasesTheHandlerWithNoLockHeld() async {
    let hub = EventHub()
    let journal = ReentryJournal()
    let token = hub.subscribe(Ping.self) {
      [object = ReenteringObject("channel", journal: journal, reentry: .hub(hub, posting: Ping(number: 99)))] _ in
      withExtendedLifetime(object) {}
    }
    let finished = await runOnThread(timeout: 60) { token.cancel() }
    #expect(finished, "G8: releasing a channel with its last subscription deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.all == [.init(name: "channel", subscriberCount: 0)])
    #expect(hub.channelCount == 0)
  }

  @Test func hubChannelPrunedOfItsDeadRespondersReleasesTheirHandlersWithNoLockHeld() async {
    let hub = EventHub()
    let journal = ReentryJournal()
    Self.subscribeDeadResponder(
      to: hub.events(of: Ping.self),
      holding: ReenteringObject("pruned", journal: journal, reentry: .hub(hub, posting: Ping(number: 99))))
    let channels = LockedState(-1)
    let finished = await runOnThread(timeout: 60) {
      hub.pruneDeadSubscribers()
      let count = hub.channelCount
      channels.withLock { $0 = count }
    }
    #expect(finished, "G8: pruning a channel deadlocked")
    guard finished else { return }
    #expect(journal.all == [.init(name: "pruned", subscriberCount: 0)])
    #expect(channels.withLock { $0 } == 0)
  }

  // MARK: - Operators

  @Test func operatorClosuresOfADeadResponderAreReleasedWithNoLockHeld() async {
    let output = Output<Int>()
    let journal = ReentryJournal()
    let reentry = Reentry.output(output, sending: 99)
    let received = Log<Int>()
    let token = output.subscribe { received.append($0) }
    output.map { [object = ReenteringObject("map", journal: journal, reentry: reentry)] event in
      withExtendedLifetime(object) { event * 10 }
    }.subscribe(Screen()) { _, _ in }
    output.filter { [object = ReenteringObject("filter", journal: journal, reentry: reentry)] _ in
      withExtendedLifetime(object) { true }
    }.subscribe(Screen()) { _, _ in }
    let finished = await runOnThread(timeout: 60) { output.send(1) }
    #expect(finished, "G8: releasing an operator's closure deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.names.sorted() == ["filter", "map"])
    #expect(received.elements == [1, 99, 99])
    withExtendedLifetime(token) {}
  }

  @Test func removeDuplicatesReleasesTheEventItKeptForADeadResponderWithNoLockHeld() async {
    let output = Output<Note>()
    let journal = ReentryJournal()
    let plain = Note("plain")
    let delivered = Counter()
    do {
      let screen = Screen()
      output.removeDuplicates().subscribe(screen) { _, _ in delivered.increment() }
      withExtendedLifetime(screen) {
        let object = ReenteringObject("previous", journal: journal, reentry: .output(output, sending: plain))
        output.send(Note("kept", holding: object))
      }
    }
    #expect(delivered.current == 1)
    #expect(journal.count == 0, "the operator did not keep the previous event")
    let finished = await runOnThread(timeout: 60) { output.send(plain) }
    #expect(finished, "G8: releasing the event removeDuplicates kept deadlocked")
    guard finished else { return }
    #expect(journal.all == [.init(name: "previous", subscriberCount: 0)])
  }

  @Test func removeDuplicatesReleasesTheEventItKeptWithNoLockHeldOnCancel() async {
    let output = Output<Note>()
    let journal = ReentryJournal()
    let token = output.removeDuplicates().subscribe { _ in }
    let reentry = Reentry.output(output, sending: Note("plain"))
    output.send(Note("kept", holding: ReenteringObject("previous", journal: journal, reentry: reentry)))
    #expect(journal.count == 0, "the operator did not keep the previous event")
    let finished = await runOnThread(timeout: 60) { token.cancel() }
    #expect(finished, "G8: releasing the event removeDuplicates kept deadlocked")
    guard finished else { return abandon(token) }
    #expect(journal.all == [.init(name: "previous", subscriberCount: 0)])
  }

  // MARK: - values

  // The iterating tasks run on the cooperative pool, which these tests must not block: they wait by suspending.

  @Test func valuesReleasesTheEventsItBufferedWithNoLockHeldWhenIterationEnds() async {
    // Five events wait in the stream; the loop takes two and breaks, and the stream releases the other three.
    let output = Output<Note>()
    let journal = ReentryJournal()
    let plain = Note("plain")
    let consumed = Log<String>()
    let iterated = Flag()
    Task {
      let stream = output.values
      for index in 0..<5 {
        let object = ReenteringObject("\(index)", journal: journal, reentry: .output(output, sending: plain))
        output.send(Note("\(index)", holding: object))
      }
      for await note in stream {
        consumed.append(note.text)
        if consumed.count == 2 { break }
      }
      iterated.set()
    }
    guard await suspendUntil({ iterated.isSet }) else {
      Issue.record("G8: iterating values deadlocked")
      return
    }
    #expect(await suspendUntil { journal.count == 5 }, "released: \(journal.names)")
    #expect(consumed.elements == ["0", "1"])
    #expect(await suspendUntil { output.subscriberCount == 0 }, "the subscription outlived the loop")
  }

  @Test func valuesReleasesItsSubscriptionWithNoLockHeldWhenTheIteratingTaskIsCancelled() async {
    let output = Output<Int>()
    let journal = ReentryJournal()
    let subscribed = Flag()
    let received = Flag()
    let ended = Flag()
    let task = Task {
      let stream = output.map {
        [object = ReenteringObject("transform", journal: journal, reentry: .output(output, sending: 99))] event in
        withExtendedLifetime(object) { event }
      }.values
      subscribed.set()
      for await _ in stream { received.set() }
      ended.set()
    }
    #expect(await suspendUntil { subscribed.isSet })
    output.send(1)
    #expect(await suspendUntil { received.isSet })
    task.cancel()
    guard await suspendUntil({ ended.isSet }) else {
      Issue.record("G8: ending the iteration deadlocked")
      return
    }
    #expect(await suspendUntil { journal.count == 1 }, "the transform's capture was not released")
    #expect(journal.all == [.init(name: "transform", subscriberCount: 0)])
  }

  // MARK: - Delivery on a queue or the main actor

  /// Where the queued-delivery tests deliver: a queue of their own, or the main actor.
  enum QueuedDelivery: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case queue
    case mainActor

    var testDescription: String { rawValue }

    /// The queue the test holds so that the events wait: its own, or the main one.
    func makeQueue() -> DispatchQueue {
      switch self {
      case .queue: DispatchQueue(label: "held")
      case .mainActor: .main
      }
    }

    /// Subscribes `handler`, token-owned, on `queue` or with `on: .main`.
    func subscribe(
      to output: Output<Note>, on queue: DispatchQueue, _ handler: @escaping @Sendable (Note) -> Void
    ) -> EventSubscription {
      switch self {
      case .queue: output.subscribe(on: .queue(queue), handler)
      case .mainActor: output.subscribe(on: .main) { handler($0) }
      }
    }

    /// Subscribes `screen`, held weakly, on `queue` or with `on: .main`.
    func subscribe(
      _ screen: Screen, to output: Output<Note>, on queue: DispatchQueue,
      _ handler: @escaping @Sendable (Screen, Note) -> Void
    ) {
      switch self {
      case .queue: output.subscribe(screen, on: .queue(queue), handler)
      case .mainActor: output.subscribe(screen, on: .main) { handler($0, $1) }
      }
    }
  }

  @Test(arguments: QueuedDelivery.allCases)
  func queuedDeliveryDropsWaitingEventsWithNoLockHeldOnCancel(_ delivery: QueuedDelivery) async {
    let output = Output<Note>()
    let journal = ReentryJournal()
    let reentry = Reentry.output(output, sending: Note("plain"))
    let queue = delivery.makeQueue()
    let release = DispatchSemaphore(value: 0)
    queue.async { _ = release.wait(timeout: .now() + 60) }
    let token = delivery.subscribe(to: output, on: queue) {
      [object = ReenteringObject("handler", journal: journal, reentry: reentry)] _ in
      withExtendedLifetime(object) {}
    }
    let finished = await runOnThread(timeout: 60) {
      for index in 0..<3 {
        output.send(Note("\(index)", holding: ReenteringObject("event \(index)", journal: journal, reentry: reentry)))
      }
      token.cancel()
      // Released here, not by the test after its await: a test resumes on a cooperative thread, and those may all be
      // waiting for the queue (the main one) that this test holds.
      release.signal()
    }
    #expect(finished, "G8: dropping the events waiting for the queue deadlocked")
    guard finished else { return abandon(token) }
    #expect(await suspendUntil { journal.count == 4 }, "released: \(journal.names)")
    #expect(journal.names.sorted() == ["event 0", "event 1", "event 2", "handler"])
  }

  @Test(arguments: QueuedDelivery.allCases)
  func queuedDeliveryFindingItsResponderDeadReleasesEverythingWithNoLockHeld(_ delivery: QueuedDelivery) async {
    // The queue is held until the screen is gone, so its drain finds the screen dead.
    let output = Output<Note>()
    let journal = ReentryJournal()
    let reentry = Reentry.output(output, sending: Note("plain"))
    let queue = delivery.makeQueue()
    let release = DispatchSemaphore(value: 0)
    queue.async { _ = release.wait(timeout: .now() + 60) }
    let finished = await runOnThread(timeout: 60) {
      defer { release.signal() }  // once the screen is gone, so the drain finds it dead; here, as above
      let screen = Screen()
      delivery.subscribe(screen, to: output, on: queue) {
        [object = ReenteringObject("handler", journal: journal, reentry: reentry)] _, _ in
        withExtendedLifetime(object) {}
      }
      withExtendedLifetime(screen) {
        for index in 0..<3 {
          output.send(Note("\(index)", holding: ReenteringObject("event \(index)", journal: journal, reentry: reentry)))
        }
      }
    }
    #expect(finished, "G8: the queued sends deadlocked")
    guard finished else { return }
    #expect(await suspendUntil { journal.count == 4 }, "released: \(journal.names)")
    #expect(journal.names.sorted() == ["event 0", "event 1", "event 2", "handler"])
    #expect(output.occupiedCount == 0)
  }

  // MARK: - Observation

  #if canImport(Observation)
    @Test func latestEventReleasesTheEventsItReplacesAndItsLastOneWithNoLockHeld() async {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
      let output = Output<Note>()
      let journal = ReentryJournal()
      let plain = Note("plain")
      let reentry = Reentry.output(output, sending: plain)
      let done = Flag()
      // On the main actor, each note reaches the LatestEvent before `send` returns. A note's deinit sends a plain one:
      // "0" is replaced by "1", "1" by the plain note that "0" sent, and "2" goes with the LatestEvent.
      Task { @MainActor in
        var latest: LatestEvent<Note>? = LatestEvent(output, initial: plain)
        for index in 0..<3 {
          output.send(Note("\(index)", holding: ReenteringObject("\(index)", journal: journal, reentry: reentry)))
        }
        withExtendedLifetime(latest) {}
        latest = nil
        done.set()
      }
      guard await suspendUntil({ done.isSet }) else {
        Issue.record("G8: releasing the events of a LatestEvent deadlocked")
        return
      }
      #expect(journal.names == ["0", "1", "2"])
      #expect(output.occupiedCount == 0)
    }
  #endif
}
