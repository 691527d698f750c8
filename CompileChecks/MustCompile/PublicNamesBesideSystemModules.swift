// Every public type of EventBus and Broadcasters, named unqualified in a file that also imports the modules a client
// test or app imports beside them: no name is ambiguous, and `SourceLocation` is Swift Testing's. The check script
// fails when a public type is missing here.
import Broadcasters
import Dispatch
import EventBus
import Foundation
import Observation
import Testing
import XCTest

#if canImport(Combine)
  import Combine
#endif
#if canImport(SwiftUI)
  import SwiftUI
#endif

enum Tap: Sendable, Equatable {
  case tapped
}

let eventBusTypes: [Any.Type] = [
  AnyEventViewModel<Tap, Tap>.self,
  CallSite.self,
  DeliveryContext.self,
  DistinctEvents<Output<Tap>>.self,
  (any EventCancellable).self,
  EventHub.self,
  EventHub.Events<Tap>.self,
  EventObserver<Tap, EventRecorder<Tap>>.self,
  EventRecorder<Tap>.self,
  (any EventResponder<Tap>).self,
  (any EventStream<Tap>).self,
  EventSubscription.self,
  (any EventView<Tap, Tap>).self,
  (any EventViewModel<Tap, Tap>).self,
  MainActorContext.self,
  (any MainActorEventResponder<Tap>).self,
  MappedEvents<Output<Tap>, Int>.self,
  (any Observer).self,
  ObserverComposition.self,
  Output<Tap>.self,
  ReadOnlyOutput<Tap>.self,
  ResponderSubscription.self,
]

#if canImport(Observation)
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  func observationBridgeTypes() -> [Any.Type] {
    [LatestEvent<Tap>.self]
  }
#endif

let broadcastersTypes: [Any.Type] = [
  AsyncSequenceSource<AsyncStream<Int>>.self,
  Broadcaster<Date>.self,
  DecodeFailure.self,
  DecodingSource<AsyncStream<Int>, Int>.self,
  EventSink<Int>.self,
  (any EventSource<Int>).self,
  KeyboardAnimationCurve.self,
  KeyboardBroadcaster.self,
  KeyboardEvent.self,
  KeyboardNotification.self,
  (any KeyboardObserverEventResponder).self,
  KeyboardUserInfo.self,
  KeyedSourceStatistics.self,
  (any KeyedUpstream<String, Int>).self,
  NotificationSource<Int>.self,
  ReconnectBackoff.self,
  ReconnectingSource<Int>.self,
  ReconnectStatistics.self,
  SignalSource.self,
  TimerSource.self,
  UpstreamChange.self,
]

/// `KeyedSource` is generic over an upstream that this file has none of: named through one.
func keyedSourceType<Upstream: KeyedUpstream>(over _: Upstream.Type) -> Any.Type {
  KeyedSource<Upstream>.self
}

#if compiler(>=6.2)
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func typedMessageSourceTypes() -> [Any.Type] {
    [AsyncMessageSource<Int>.self, MainActorMessageSource<Int>.self]
  }
#endif

#if canImport(Combine)
  let combineOnlyTypes: [Any.Type] = [PublisherSource<Just<Int>>.self]
#endif

@Observable final class TapCounter {
  var count = 0
}

@Suite struct PublicNamesTests {
  @Test func eventsReachARecorderBesideTestingNames() {
    let output = Output<Tap>()
    let recorder = EventRecorder<Tap>()
    output.subscribe(recorder, on: .queue(DispatchQueue(label: "recorder")))
    let subscription: EventSubscription = output.subscribe { _ in }
    let site = CallSite(fileID: #fileID, line: #line)
    let location: SourceLocation = Testing.SourceLocation(
      fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    output.send(.tapped)
    subscription.cancel()
    #expect(site.line > 0, sourceLocation: location)
    #expect(eventBusTypes.count + broadcastersTypes.count > 0)
  }
}

final class PublicNamesXCTests: XCTestCase {
  func testHubBesideXCTestNames() {
    let hub = EventHub()
    let counter = TapCounter()
    withObservationTracking {
      _ = counter.count
    } onChange: {
    }
    let token = hub.subscribe(Tap.self) { _ in }
    hub.post(Tap.tapped)
    token.cancel()
    XCTAssertEqual(hub.subscriberCount(for: Tap.self), 0)
    XCTAssertNotNil(NotificationCenter.default)
  }
}
