import Testing

@testable import EventBus

/// The hub routes by the static type at the call site: an existential posts as the existential, an upcast class
/// instance as its superclass.
@Suite struct EventHubRoutingTests {
  protocol Announcement: Sendable { var text: String { get } }
  struct Banner: Announcement { let text: String }
  class Message {
    let text: String
    init(text: String) { self.text = text }
  }
  final class Alert: Message {}

  /// One token-owned subscriber for each type, recording what reached it.
  struct Routes {
    let log = Log<String>()
    let tokens: [EventSubscription]

    init(_ hub: EventHub) {
      let log = log
      tokens = [
        hub.subscribe((any Announcement).self) { log.append("any Announcement: \($0.text)") },
        hub.subscribe(Banner.self) { log.append("Banner: \($0.text)") },
        hub.subscribe(Message.self) { log.append("Message: \($0.text)") },
        hub.subscribe(Alert.self) { log.append("Alert: \($0.text)") },
      ]
    }

    /// Ends the subscriptions, as a test that is done with them should (a token released unused is reported).
    func cancel() {
      for token in tokens {
        token.cancel()
      }
    }
  }

  @Test func anExistentialIsRoutedByItsStaticTypeInEverySpelling() {
    let hub = EventHub()
    let routes = Routes(hub)
    let announcement: any Announcement = Banner(text: "hi")
    hub.post(announcement)
    hub.post(announcement as any Announcement)
    hub.post(announcement, as: (any Announcement).self)
    #expect(routes.log.elements == Array(repeating: "any Announcement: hi", count: 3))
    routes.cancel()
  }

  @Test func aConcreteValueReachesOnlyItsOwnTypeUnlessPostedAsTheProtocol() {
    let hub = EventHub()
    let routes = Routes(hub)
    let banner = Banner(text: "hi")
    hub.post(banner)
    hub.post(banner, as: (any Announcement).self)
    hub.post(banner as any Announcement)
    #expect(routes.log.elements == ["Banner: hi", "any Announcement: hi", "any Announcement: hi"])
    routes.cancel()
  }

  @Test func anUpcastClassInstanceIsRoutedAsItsStaticClass() {
    let hub = EventHub()
    let routes = Routes(hub)
    let alert = Alert(text: "fire")
    let asMessage: Message = alert
    hub.post(asMessage)
    hub.post(alert)
    hub.post(alert as Message)
    hub.post(alert, as: Message.self)
    #expect(routes.log.elements == ["Message: fire", "Alert: fire", "Message: fire", "Message: fire"])
    routes.cancel()
  }

  /// Swift opens an existential argument of a generic function that takes it as `T`: inside, `T` is the type of the
  /// value inside, so a post from there reaches that type's subscribers, and `post(_:as:)` keeps the protocol's.
  @Test func anExistentialPassedThroughAGenericFunctionIsPostedAsTheTypeInsideIt() {
    func relay<T: Sendable>(_ value: T, on hub: EventHub) { hub.post(value) }
    func relayAsAnnouncement<T: Announcement>(_ value: T, on hub: EventHub) {
      hub.post(value, as: (any Announcement).self)
    }
    let hub = EventHub()
    let routes = Routes(hub)
    let announcement: any Announcement = Banner(text: "hi")
    relay(announcement, on: hub)
    relayAsAnnouncement(announcement, on: hub)
    #expect(routes.log.elements == ["Banner: hi", "any Announcement: hi"])
    routes.cancel()
  }

  @Test func aClassInstanceHeldAsItsSuperclassIsNotOpenedByAGenericFunction() {
    func relay<T: Sendable>(_ value: T, on hub: EventHub) { hub.post(value) }
    let hub = EventHub()
    let routes = Routes(hub)
    let asMessage: Message = Alert(text: "fire")
    relay(asMessage, on: hub)
    #expect(routes.log.elements == ["Message: fire"])
    routes.cancel()
  }
}

// Immutable: `text` is a `let`.
extension EventHubRoutingTests.Message: @unchecked Sendable {}

// Adds no stored property to `Message`.
extension EventHubRoutingTests.Alert: @unchecked Sendable {}
