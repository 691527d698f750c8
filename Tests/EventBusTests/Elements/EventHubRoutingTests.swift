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

    init(_ bus: EventHub) {
      let log = log
      tokens = [
        bus.subscribe((any Announcement).self) { log.append("any Announcement: \($0.text)") },
        bus.subscribe(Banner.self) { log.append("Banner: \($0.text)") },
        bus.subscribe(Message.self) { log.append("Message: \($0.text)") },
        bus.subscribe(Alert.self) { log.append("Alert: \($0.text)") },
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
    let bus = EventHub()
    let routes = Routes(bus)
    let announcement: any Announcement = Banner(text: "hi")
    bus.post(announcement)
    bus.post(announcement as any Announcement)
    bus.post(announcement, as: (any Announcement).self)
    #expect(routes.log.elements == Array(repeating: "any Announcement: hi", count: 3))
    routes.cancel()
  }

  @Test func aConcreteValueReachesOnlyItsOwnTypeUnlessPostedAsTheProtocol() {
    let bus = EventHub()
    let routes = Routes(bus)
    let banner = Banner(text: "hi")
    bus.post(banner)
    bus.post(banner, as: (any Announcement).self)
    bus.post(banner as any Announcement)
    #expect(routes.log.elements == ["Banner: hi", "any Announcement: hi", "any Announcement: hi"])
    routes.cancel()
  }

  @Test func anUpcastClassInstanceIsRoutedAsItsStaticClass() {
    let bus = EventHub()
    let routes = Routes(bus)
    let alert = Alert(text: "fire")
    let asMessage: Message = alert
    bus.post(asMessage)
    bus.post(alert)
    bus.post(alert as Message)
    bus.post(alert, as: Message.self)
    #expect(routes.log.elements == ["Message: fire", "Alert: fire", "Message: fire", "Message: fire"])
    routes.cancel()
  }

  /// Swift opens an existential argument of a generic function that takes it as `T`: inside, `T` is the type of the
  /// value inside, so a post from there reaches that type's subscribers, and `post(_:as:)` keeps the protocol's.
  @Test func anExistentialPassedThroughAGenericFunctionIsPostedAsTheTypeInsideIt() {
    func relay<T: Sendable>(_ value: T, on bus: EventHub) { bus.post(value) }
    func relayAsAnnouncement<T: Announcement>(_ value: T, on bus: EventHub) {
      bus.post(value, as: (any Announcement).self)
    }
    let bus = EventHub()
    let routes = Routes(bus)
    let announcement: any Announcement = Banner(text: "hi")
    relay(announcement, on: bus)
    relayAsAnnouncement(announcement, on: bus)
    #expect(routes.log.elements == ["Banner: hi", "any Announcement: hi"])
    routes.cancel()
  }

  @Test func aClassInstanceHeldAsItsSuperclassIsNotOpenedByAGenericFunction() {
    func relay<T: Sendable>(_ value: T, on bus: EventHub) { bus.post(value) }
    let bus = EventHub()
    let routes = Routes(bus)
    let asMessage: Message = Alert(text: "fire")
    relay(asMessage, on: bus)
    #expect(routes.log.elements == ["Message: fire"])
    routes.cancel()
  }
}

// Immutable: `text` is a `let`.
extension EventHubRoutingTests.Message: @unchecked Sendable {}

// Adds no stored property to `Message`.
extension EventHubRoutingTests.Alert: @unchecked Sendable {}
