import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

/// G9 under concurrency: every test counts starts and stops against a source that records its own, with
/// real threads behind a start barrier and a watchdog.
@Suite struct BroadcasterConcurrencyTests {
  @Test func concurrentFirstSubscribesFromEightThreadsConnectOnceAndTheLastLeavesDisconnectOnce() async {
    for _ in 0..<scaled(200) {
      let (broadcaster, probe) = Broadcaster<Int>.recording(pause: 50)
      let tokens = LockedState<[EventSubscription]>([])
      let joined = await runConcurrently(threads: 8) { _ in
        let token = broadcaster.subscribe { _ in }
        tokens.withLock { $0.append(token) }
      }
      guard joined else { return }
      #expect(broadcaster.connectCount == 1)
      #expect(broadcaster.isConnected)
      let all = tokens.withLock { $0 }
      tokens.withLock { $0.removeAll() }
      let left = await runConcurrently(threads: 8) { index in
        all[index].cancel()
      }
      guard left else { return }
      #expect(broadcaster.disconnectCount == 1)
      #expect(!broadcaster.isConnected)
      #expect(probe.starts == 1)
      #expect(probe.stops == 1)
      #expect(probe.maxLive == 1)
    }
  }

  @Test func respondersDeinitialisingOnEightThreadsDisconnectOnceWhenNoticed() async {
    for _ in 0..<scaled(100) {
      let (broadcaster, probe) = Broadcaster<Int>.recording(pause: 20)
      let finished = await runConcurrently(threads: 8) { index in
        let recorder = Recorder<Int>()
        broadcaster.subscribe(recorder)
        probe.emit(index)
        // The recorder deinitialises here; pruning makes the broadcaster notice.
        broadcaster.pruneDeadSubscribers()
      }
      guard finished else { return }
      // A prune reads every weak reference, which holds that responder for a moment: a thread whose own prune ran
      // then saw its responder alive, and the responder deinitialised on the other thread. One more prune finds it.
      broadcaster.pruneDeadSubscribers()
      #expect(broadcaster.subscriberCount == 0)
      #expect(!broadcaster.isConnected)
      #expect(broadcaster.connectCount == broadcaster.disconnectCount)
      #expect(probe.maxLive == 1)
      #expect(probe.alternated)
    }
  }

  @Test func churningSubscribersOnEightThreadsGiveEqualConnectAndDisconnectCountsAndNeverTwoLive() async {
    let (broadcaster, probe) = Broadcaster<Int>.recording(pause: 5)
    let iterations = scaled(2_000)
    let finished = await runConcurrently(threads: 8) { index in
      for iteration in 0..<iterations {
        switch (index + iteration) % 3 {
        case 0:
          let token = broadcaster.subscribe { _ in }
          token.cancel()
        case 1:
          let recorder = Recorder<Int>()
          broadcaster.subscribe(recorder)
          probe.emit(iteration)  // may find the recorder of another thread dead, and disconnect
        default:
          let recorder = Recorder<Int>()
          let handle = broadcaster.subscribe(recorder)
          handle.cancel()
        }
      }
    }
    guard finished else { return }
    broadcaster.pruneDeadSubscribers()
    #expect(!broadcaster.isConnected)
    #expect(broadcaster.connectCount > 0)
    #expect(broadcaster.connectCount == broadcaster.disconnectCount)
    #expect(probe.starts == broadcaster.connectCount)
    #expect(probe.stops == broadcaster.disconnectCount)
    #expect(probe.maxLive == 1)
    #expect(probe.alternated)
    #expect(probe.state.withLock { $0.mismatchedStops } == 0)
  }

  @Test func churningTokensOnEightThreadsEndDisconnectedWithoutAnyPrune() async {
    // Only tokens, and no `subscriberCount` at the end: a membership change lost while another thread reconciles
    // would leave the broadcaster connected with nobody subscribed.
    for _ in 0..<scaled(10) {
      let (broadcaster, probe) = Broadcaster<Int>.recording()
      let iterations = scaled(2_000)
      var finished = false
      // Each thread releases its last tokens unused, on purpose: the warnings are captured, not printed.
      await capturingEarlyReleaseWarnings {
        finished = await runConcurrently(threads: 8) { index in
          var held: [EventSubscription] = []
          for iteration in 0..<iterations {
            held.append(broadcaster.subscribe { _ in })
            if (index + iteration) % 2 == 0 || held.count > 3 {
              held.removeFirst().cancel()
            }
          }
          held.removeAll()
        }
      }
      guard finished else { return }
      #expect(!broadcaster.isConnected)
      #expect(broadcaster.connectCount == broadcaster.disconnectCount)
      #expect(probe.maxLive == 1)
      #expect(probe.alternated)
    }
  }

  /// A thousand responders join from eight threads, some of them from inside the first
  /// connect, then all leave.
  @Test func aThousandRespondersJoinFromEightThreadsSomeFromInsideTheFirstConnectThenAllLeave() async {
    let box = LockedState<Broadcaster<Int>?>(nil)
    let joinedInsideStart = LockedState<[Recorder<Int>]>([])
    let (broadcaster, probe) = Broadcaster<Int>.recording(pause: 100) { _ in
      guard let broadcaster = box.withLock({ $0 }) else { return }
      let recorders = (0..<8).map { _ in Recorder<Int>() }
      for recorder in recorders {
        broadcaster.subscribe(recorder)
      }
      joinedInsideStart.withLock { $0 += recorders }
    }
    box.withLock { $0 = broadcaster }
    let recorders = LockedState<[Recorder<Int>]>([])
    let joined = await runConcurrently(threads: 8) { _ in
      var mine: [Recorder<Int>] = []
      for _ in 0..<124 {
        let recorder = Recorder<Int>()
        broadcaster.subscribe(recorder)
        mine.append(recorder)
      }
      recorders.withLock { $0 += mine }
    }
    guard joined else { return }
    #expect(broadcaster.subscriberCount == 1_000)
    #expect(broadcaster.connectCount == 1)
    probe.emit(42)
    do {
      let everyone = recorders.withLock { $0 } + joinedInsideStart.withLock { $0 }
      #expect(everyone.count == 1_000)
      #expect(everyone.allSatisfy { $0.events == [42] })
    }

    // All leave: each thread releases an eighth of the responders (the ones that joined inside start with the
    // main thread's share), then reads the count so that the broadcaster notices.
    let chunkBox = LockedState<[[Recorder<Int>]]>([])
    recorders.withLock { all in
      chunkBox.withLock { chunks in
        chunks = stride(from: 0, to: all.count, by: 124).map { Array(all[$0..<$0 + 124]) }
      }
      all.removeAll()
    }
    joinedInsideStart.withLock { $0.removeAll() }
    let left = await runConcurrently(threads: 8) { index in
      let mine = chunkBox.withLock { chunks in
        defer { chunks[index] = [] }
        return chunks[index]
      }
      _ = mine  // released here, on this thread
      broadcaster.pruneDeadSubscribers()
    }
    guard left else { return }
    // A responder held for a moment by another thread's prune (it reads every weak reference) deinitialised on that
    // thread after this thread's own prune saw it alive; one more prune finds it.
    broadcaster.pruneDeadSubscribers()
    #expect(broadcaster.subscriberCount == 0)
    #expect(!broadcaster.isConnected)
    #expect(broadcaster.connectCount == 1)
    #expect(broadcaster.disconnectCount == 1)
    #expect(probe.maxLive == 1)
    box.withLock { $0 = nil }
  }

  /// The 0 → 1 000 → 0 cycle, repeated.
  @Test func zeroToAThousandToZeroCyclesConnectAndDisconnectOncePerCycleAndNeverTwoLive() async {
    let (broadcaster, probe) = Broadcaster<Int>.recording()
    let cycles = scaled(1_000)
    let threads = 8
    let perThread = 125
    let barrier = CyclicBarrier(parties: threads)
    let failures = Log<String>()
    let finished = await runConcurrently(threads: threads, timeout: 600) { index in
      var tokens: [EventSubscription] = []
      tokens.reserveCapacity(perThread)
      for cycle in 1...cycles {
        for _ in 0..<perThread {
          tokens.append(broadcaster.subscribe { _ in })
        }
        guard barrier.arrive() else { return failures.append("barrier timed out joining cycle \(cycle)") }
        if index == 0 {
          if broadcaster.connectCount != cycle || !broadcaster.isConnected {
            failures.append("cycle \(cycle): \(broadcaster.connectCount) connects after joining")
          }
        }
        guard barrier.arrive() else { return failures.append("barrier timed out checking cycle \(cycle)") }
        for token in tokens {
          token.cancel()
        }
        tokens.removeAll(keepingCapacity: true)
        guard barrier.arrive() else { return failures.append("barrier timed out leaving cycle \(cycle)") }
        if index == 0 {
          if broadcaster.disconnectCount != cycle || broadcaster.isConnected {
            failures.append("cycle \(cycle): \(broadcaster.disconnectCount) disconnects after leaving")
          }
        }
        guard barrier.arrive() else { return failures.append("barrier timed out ending cycle \(cycle)") }
      }
    }
    guard finished else { return }
    #expect(failures.elements.isEmpty, "\(failures.elements.prefix(5))")
    #expect(broadcaster.connectCount == cycles)
    #expect(broadcaster.disconnectCount == cycles)
    #expect(probe.starts == cycles)
    #expect(probe.stops == cycles)
    #expect(probe.maxLive == 1)
    #expect(probe.alternated)
  }

  /// Ten thousand broadcaster lifecycles leave nothing alive.
  @Test func tenThousandBroadcasterLifecyclesLeaveNoLiveObjects() async {
    struct LifecycleEvent: Sendable {}
    let lifecycles = scaled(10_000)
    let threads = 8
    let wrongEndings = Counter()
    let finished = await runConcurrently(threads: threads) { index in
      for lifecycle in stride(from: index, to: lifecycles, by: threads) {
        let probe = SourceProbe<LifecycleEvent>()
        weak var weakBroadcaster: Broadcaster<LifecycleEvent>?
        weak var weakRecorder: Recorder<LifecycleEvent>?
        do {
          let broadcaster = Broadcaster(source: RecordingSource(probe: probe))
          weakBroadcaster = broadcaster
          let recorder = Recorder<LifecycleEvent>()
          weakRecorder = recorder
          broadcaster.subscribe(recorder)
          let token = broadcaster.subscribe { _ in }
          probe.emit(LifecycleEvent())
          switch lifecycle % 3 {
          case 0: token.cancel()  // the broadcaster is then released while the responder still listens
          case 1: _ = broadcaster.subscriberCount
          default: break  // released with both subscriptions live
          }
        }
        if weakBroadcaster != nil || weakRecorder != nil || probe.starts != 1 || probe.stops != 1 || probe.sink != nil {
          wrongEndings.increment()
        }
      }
    }
    guard finished else { return }
    #expect(wrongEndings.count == 0)
    #expect(LiveObjects.total(for: LifecycleEvent.self) == 0)
  }
}
