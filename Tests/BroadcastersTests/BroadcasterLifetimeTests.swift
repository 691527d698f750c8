import Broadcasters
import EventBus
import EventBusTestSupport
import Foundation
import Testing

/// A released broadcaster disconnects and leaks nothing; every way a subscription ends frees what it allocated. Each
/// test counts live objects for an event type of its own, so tests running in parallel do not disturb the count.
@Suite struct BroadcasterLifetimeTests {
  @Test func aReleasedBroadcasterStopsItsSourceAndFreesEverything() {
    struct ReleasedEvent: Sendable {}
    let probe = SourceProbe<ReleasedEvent>()
    weak var weakBroadcaster: Broadcaster<ReleasedEvent>?
    let recorder = Recorder<ReleasedEvent>()
    var token: EventSubscription?
    do {
      let broadcaster = Broadcaster(source: RecordingSource(probe: probe))
      weakBroadcaster = broadcaster
      broadcaster.subscribe(recorder)
      token = broadcaster.subscribe { _ in }
      probe.emit(ReleasedEvent())
      #expect(broadcaster.isConnected)
    }
    // Subscribers, even live ones, do not keep the broadcaster alive.
    #expect(weakBroadcaster == nil)
    #expect(probe.stops == 1)
    #expect(probe.sink == nil)
    #expect(recorder.events.count == 1)
    token?.cancel()
    token = nil
    #expect(LiveObjects.total(for: ReleasedEvent.self) == 0)
  }

  @Test func aSinkKeptByASourceAfterStopDoesNotKeepTheBroadcasterAlive() {
    struct KeptSinkEvent: Sendable {}
    let probe = SourceProbe<KeptSinkEvent>()
    weak var weakBroadcaster: Broadcaster<KeptSinkEvent>?
    var keptSink: EventSink<KeptSinkEvent>?
    let warnings = capturingEarlyReleaseWarnings {
      let broadcaster = Broadcaster(source: RecordingSource(probe: probe))
      weakBroadcaster = broadcaster
      let token = broadcaster.subscribe { _ in }
      keptSink = probe.sink
      _ = token  // released unused, on purpose
    }
    #expect(warnings.count == 1)
    #expect(weakBroadcaster == nil)
    keptSink?.send(KeptSinkEvent())  // ignored: its connection is closed
    #expect(LiveObjects.count("Broadcaster", for: KeptSinkEvent.self) == 0)
    keptSink = nil
    #expect(LiveObjects.total(for: KeptSinkEvent.self) == 0)
  }

  @Test func everyWayASubscriptionEndsFreesItsEntry() {
    struct EndingEvent: Sendable {}
    let (broadcaster, probe) = Broadcaster<EndingEvent>.recording()

    do {
      let cancelled = broadcaster.subscribe { _ in }
      cancelled.cancel()
    }
    let warnings = capturingEarlyReleaseWarnings {
      let released = broadcaster.subscribe { _ in }
      _ = released  // released unused, on purpose
    }
    #expect(warnings.count == 1)
    do {
      let recorder = Recorder<EndingEvent>()
      broadcaster.subscribe(recorder).cancel()
    }
    do {
      let recorder = Recorder<EndingEvent>()
      broadcaster.subscribe(recorder)
    }
    probe.emit(EndingEvent())  // finds the dead responder
    do {
      let recorder = Recorder<EndingEvent>()
      broadcaster.subscribe(recorder)
    }
    broadcaster.pruneDeadSubscribers()  // finds the dead responder

    #expect(LiveObjects.count("Output.Entry", for: EndingEvent.self) == 0)
    #expect(!broadcaster.isConnected)
    #expect(broadcaster.connectCount == 5)
    #expect(broadcaster.disconnectCount == 5)
  }
}
