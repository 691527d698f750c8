import Broadcasters
import EventBus
import Foundation
import Testing

// The code of SharingOneSubscription.md, and of the broadcaster parts of RuntimeBehavior.md (G9, G10). Plain imports,
// not `@testable`: the articles may use public API only. Each test posts on a NotificationCenter of its own, so tests
// running in parallel never see each other's notifications; in an app the center is `NotificationCenter.default`.

/// The suites that hold the code of the DocC articles; `swift test --filter Documentation` runs them.
enum Documentation {}

extension Documentation {
  @Suite struct SharingOneSubscription {
    static let keyboardUp = KeyboardUserInfo(
      beginFrame: CGRect(x: 0, y: 844, width: 390, height: 336),
      endFrame: CGRect(x: 0, y: 508, width: 390, height: 336))

    // MARK: Before: one observer per screen

    // snippet: sharing-per-observer
    @MainActor final class PaymentScreen {
      private(set) var bottomInset = 0.0
      private let center: NotificationCenter
      private var observers: [any NSObjectProtocol] = []

      init(center: NotificationCenter) {
        self.center = center
      }

      func startObservingKeyboard() {
        for name in [KeyboardNotification.willShow, KeyboardNotification.willHide] {
          let observer = center.addObserver(forName: name, object: nil, queue: nil) {
            [weak self] notification in
            // Every screen decodes the same userInfo again.
            guard let userInfo = notification.userInfo,
              let info = try? KeyboardUserInfo(userInfo: userInfo)
            else { return }
            let isShowing = notification.name == KeyboardNotification.willShow
            DispatchQueue.main.async {
              self?.bottomInset = isShowing ? info.endFrame.height : 0
            }
          }
          observers.append(observer)
        }
      }

      func stopObservingKeyboard() {
        for observer in observers {
          center.removeObserver(observer)
        }
        observers = []
      }
    }
    // end-snippet

    @Test @MainActor func eachScreenObservesAndDecodesOnItsOwn() async {
      let center = NotificationCenter()
      let screens = (1...3).map { _ in PaymentScreen(center: center) }
      for screen in screens { screen.startObservingKeyboard() }
      center.post(KeyboardEvent.willShow(Self.keyboardUp).notification())
      for screen in screens {
        await Documentation.waitUntil { screen.bottomInset == 336 }
        #expect(screen.bottomInset == 336)
        screen.stopObservingKeyboard()
      }
    }

    // MARK: After: one broadcaster for every screen

    // snippet: sharing-responder
    @MainActor final class CheckoutScreen: KeyboardObserverEventResponder {
      private(set) var bottomInset = 0.0

      func keyboardWillShow(_ info: KeyboardUserInfo) {
        bottomInset = info.endFrame.height
      }

      func keyboardWillHide(_ info: KeyboardUserInfo) {
        bottomInset = 0
      }
    }
    // end-snippet

    @Test @MainActor func oneObserverAndOneDecodeServeEveryScreen() async {
      // snippet: sharing-broadcaster
      let center = NotificationCenter()  // NotificationCenter.default in an app
      let keyboard = KeyboardBroadcaster(center: center)
      let screens = (1...3).map { _ in CheckoutScreen() }
      for screen in screens {
        keyboard.subscribe(screen)  // held weakly; its methods run on the main actor
      }
      // keyboard.connectCount == 1: one observer per keyboard notification name, however many screens

      // What UIKit posts when the keyboard rises:
      let keyboardUp = KeyboardUserInfo(
        beginFrame: CGRect(x: 0, y: 844, width: 390, height: 336),
        endFrame: CGRect(x: 0, y: 508, width: 390, height: 336))
      center.post(KeyboardEvent.willShow(keyboardUp).notification())
      // every screen's bottomInset == 336, and keyboard.upstreamEventCount == 1: decoded once
      // end-snippet
      for screen in screens {
        await Documentation.waitUntil { screen.bottomInset == 336 }
        #expect(screen.bottomInset == 336)
      }
      #expect(keyboard.connectCount == 1)
      #expect(keyboard.upstreamEventCount == 1)
    }

    // MARK: G9: connect with the first subscriber, disconnect after the last

    @Test @MainActor func theBroadcasterConnectsOnlyWhileSomeoneListens() {
      let center = NotificationCenter()
      // snippet: sharing-lifecycle-token
      let keyboard = KeyboardBroadcaster(center: center)
      // keyboard.isConnected == false: nobody listens, nothing is observed

      let subscription = keyboard.subscribe(on: .main) { event in
        print("keyboard:", event)
      }
      // keyboard.isConnected == true, keyboard.connectCount == 1

      subscription.cancel()
      // keyboard.isConnected == false, keyboard.disconnectCount == 1: the last subscriber left
      // end-snippet
      #expect(!keyboard.isConnected)
      #expect(keyboard.connectCount == 1)
      #expect(keyboard.disconnectCount == 1)
    }

    @Test @MainActor func aDeinitialisedResponderIsNoticedAtTheNextTouch() {
      let center = NotificationCenter()
      let keyboard = KeyboardBroadcaster(center: center)
      // snippet: sharing-lifecycle-responder
      var screen: CheckoutScreen? = CheckoutScreen()
      keyboard.subscribe(screen!)
      // keyboard.isConnected == true

      screen = nil
      // keyboard.isConnected == true: the broadcaster has not looked yet

      keyboard.pruneDeadSubscribers()  // looks, finds nobody, disconnects
      // keyboard.isConnected == false, keyboard.disconnectCount == 1
      // end-snippet
      #expect(!keyboard.isConnected)
      #expect(keyboard.connectCount == 1)
      #expect(keyboard.disconnectCount == 1)
    }

    @Test @MainActor func theNextNotificationAlsoNoticesAndDisconnects() async {
      let center = NotificationCenter()
      let keyboard = KeyboardBroadcaster(center: center)
      var screen: CheckoutScreen? = CheckoutScreen()
      keyboard.subscribe(screen!)
      screen = nil
      #expect(keyboard.isConnected)
      // The main-actor delivery finds the responder gone, removes the subscription, and the broadcaster disconnects.
      center.post(KeyboardEvent.willShow(Self.keyboardUp).notification())
      await Documentation.waitUntil { !keyboard.isConnected }
      #expect(!keyboard.isConnected)
      #expect(keyboard.disconnectCount == 1)
    }

    // MARK: G10: bad input

    @Test func aPayloadThatCannotBeDecodedIsCountedAndReported() async {
      let center = NotificationCenter()
      let keyboardUp = Self.keyboardUp
      let received = EventRecorder<KeyboardEvent>()
      // snippet: sharing-bad-input
      let keyboard = KeyboardBroadcaster(center: center)
      let failures = EventRecorder<DecodeFailure>()  // in an app: log them
      keyboard.onDecodeFailure = { failure in failures.handle(event: failure) }
      keyboard.subscribe(received)

      var userInfo = keyboardUp.userInfo
      userInfo[KeyboardNotification.UserInfoKey.frameEnd] = nil
      center.post(name: KeyboardNotification.willShow, object: nil, userInfo: userInfo)  // not delivered
      center.post(KeyboardEvent.willShow(keyboardUp).notification())  // delivered as usual

      // received.events == [.willShow(keyboardUp)], keyboard.decodeFailureCount == 1
      // failures.events.first?.key == "UIKeyboardFrameEndUserInfoKey", its reason == .missingKey
      // end-snippet
      #expect(received.events == [.willShow(keyboardUp)])
      #expect(keyboard.decodeFailureCount == 1)
      #expect(failures.events.first?.key == KeyboardNotification.UserInfoKey.frameEnd.description)
      #expect(failures.events.first?.reason == .missingKey)
      #expect(failures.events.first?.name == KeyboardNotification.willShow.rawValue)
    }

    // MARK: Your own notifications

    // snippet: sharing-notification-names
    enum SessionNotification {
      static let didExpire = Notification.Name("SessionDidExpire")
      static let didRenew = Notification.Name("SessionDidRenew")
    }

    enum SessionEvent: Sendable, Equatable {
      case expired(reason: String)
      case renewed
    }
    // end-snippet

    @Test func aNotificationSourceIsObservedOnceAndDecodedOncePerNotification() {
      let center = NotificationCenter()
      // snippet: sharing-notification-source
      let source = NotificationSource(
        names: [SessionNotification.didExpire, SessionNotification.didRenew], center: center
      ) { notification -> SessionEvent in
        // Runs once per notification, whatever the number of subscribers.
        guard notification.name == SessionNotification.didExpire else { return .renewed }
        guard let reason = notification.userInfo?["reason"] as? String else {
          throw DecodeFailure(key: "reason", reason: .missingKey)
        }
        return .expired(reason: reason)
      }
      let sessions = Broadcaster(source: source)
      // end-snippet
      let account = EventRecorder(sessions)
      let banner = EventRecorder(sessions)
      center.post(name: SessionNotification.didExpire, object: nil, userInfo: ["reason": "password changed"])
      center.post(name: SessionNotification.didRenew, object: nil)
      #expect(account.events == [.expired(reason: "password changed"), .renewed])
      #expect(banner.events == account.events)
      #expect(sessions.upstreamEventCount == 2)
      #expect(source.observerCount == 2)
    }

    // MARK: Your own source

    @Test func aCustomSourceIsStartedOnceForEverySubscriber() {
      // snippet: sharing-custom-source-use
      let service = LocationService()
      let location = Broadcaster(source: LocationSource(service: service))
      let map = EventRecorder(location)
      let tracker = EventRecorder(location)
      // service.listenerCount == 1: one listener for both subscribers

      service.report(Coordinate(latitude: 51.5, longitude: -0.12))
      // map.events == tracker.events == [Coordinate(latitude: 51.5, longitude: -0.12)]
      // end-snippet
      #expect(service.listenerCount == 1)
      #expect(map.events == [Coordinate(latitude: 51.5, longitude: -0.12)])
      #expect(tracker.events == map.events)
      _ = (map, tracker)
    }

    @Test func theLastSubscriberLeavingStopsTheSource() {
      let service = LocationService()
      let location = Broadcaster(source: LocationSource(service: service))
      do {
        let map = EventRecorder(location)
        #expect(service.listenerCount == 1)
        _ = map
      }
      #expect(location.subscriberCount == 0)
      location.pruneDeadSubscribers()
      #expect(service.listenerCount == 0)
      #expect(location.disconnectCount == 1)
    }
  }
}

extension Documentation {
  /// Waits on the main actor, letting the main queue run, until `condition` holds or `timeoutSeconds` have passed, so
  /// that a delivery that never comes fails the test's expectation instead of hanging it.
  @MainActor static func waitUntil(
    timeoutSeconds: Double = 120,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
  ) async {
    let deadline = DispatchTime.now() + timeoutSeconds
    while !condition() {
      guard DispatchTime.now() < deadline else {
        Issue.record(
          "waited \(Int(timeoutSeconds)) s for the condition polled here; it never held", sourceLocation: sourceLocation
        )
        return
      }
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }

}

// The custom source, at file scope so that the service's `Sendable` conformance can sit in an extension of its own.

// snippet: sharing-custom-source
struct Coordinate: Sendable, Equatable {
  var latitude: Double
  var longitude: Double
}

struct LocationSource: EventSource {
  let service: LocationService

  func start(emitting sink: EventSink<Coordinate>) -> UUID {
    service.addListener { coordinate in sink.send(coordinate) }
  }

  func stop(_ listener: UUID) {
    service.removeListener(listener)
  }
}
// end-snippet

// snippet: sharing-location-service
/// A service with its own listener API, as many system services have.
final class LocationService: Sendable {
  private let listeners = Locked<[UUID: @Sendable (Coordinate) -> Void]>([:])

  func addListener(_ listener: @escaping @Sendable (Coordinate) -> Void) -> UUID {
    let id = UUID()
    listeners.withLock { $0[id] = listener }
    return id
  }

  func removeListener(_ id: UUID) {
    _ = listeners.withLock { $0.removeValue(forKey: id) }
  }

  var listenerCount: Int { listeners.withLock { $0.count } }

  func report(_ coordinate: Coordinate) {
    for listener in listeners.withLock({ Array($0.values) }) { listener(coordinate) }
  }
}
// end-snippet

/// The lock box that Getting Started shows (its tested copy is in the EventBus tests): a value that one thread at a
/// time reads and changes, inside `withLock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value  // read and written only inside `withLock`, which holds `lock`

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}
