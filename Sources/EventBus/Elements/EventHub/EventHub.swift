/// A hub that routes events by their type: post any event, subscribe to the types you care about.
///
/// A hub decouples senders from receivers that do not know each other: a sign-in flow posts `UserSignedIn`, and the
/// profile cache, the analytics logger and the badge counter each subscribe to it without anyone holding a reference
/// to anyone else.
///
/// ```swift
/// struct UserSignedIn: Sendable { let id: Int }
///
/// let hub = EventHub()                                   // inject it; there is no shared instance
/// hub.subscribe(UserSignedIn.self, cache) { cache, event in cache.load(user: event.id) }   // held weakly
/// let subscription = hub.subscribe(UserSignedIn.self) { event in print("signed in", event.id) }
/// hub.post(UserSignedIn(id: 7))
/// ```
///
/// Each event type has its own channel, an ``Output`` created by the first subscription to that type and released
/// when its last subscription ends. Posting a type nobody subscribes to costs one dictionary lookup and creates
/// nothing.
///
/// ## Guarantees
/// For the events of one type, everything ``Output`` promises applies (G1–G8): subscribers are called in the order
/// they subscribed, events are delivered one at a time and in order, a post from inside a handler of the same type
/// is queued and delivered after the current event, cancellation and weak responders behave the same, and no lock
/// is held while a handler runs, so a handler may post or subscribe on this hub.
///
/// Events of different types travel on different channels: a post of type `A` from inside a handler of type `B`
/// is delivered right away, nested inside that handler, like a method call (and like `NotificationCenter`).
///
/// ## Routing by static type
/// The hub routes by the *static* type of the posted value, the type the compiler sees at the call site, never by
/// its dynamic type: `post(event)` reaches the subscribers of that type and no other. A value held as an existential
/// reaches the subscribers of the existential type, and a class instance held as its superclass reaches the
/// subscribers of the superclass:
///
/// ```swift
/// protocol Announcement: Sendable { var text: String { get } }
/// struct Banner: Announcement { let text: String }
///
/// let announcement: any Announcement = Banner(text: "hi")
/// hub.post(announcement)                 // subscribers of (any Announcement).self, not of Banner.self
/// hub.post(Banner(text: "hi"))           // subscribers of Banner.self
/// hub.post(announcement, as: (any Announcement).self)   // the same as the first line, spelled out
/// ```
///
/// To reach the subscribers of a value's dynamic type, post it as that type, for example after a cast
/// (`if let banner = announcement as? Banner { hub.post(banner) }`). Nothing is posted twice: a subscriber of a
/// protocol or superclass does not receive the events posted as a conforming or derived type.
///
/// Swift *opens* an existential passed to a generic parameter, so inside a generic function the static type is the
/// type of the value inside. Name the type with ``post(_:as:)`` where that is not the one you mean:
///
/// ```swift
/// func relay<T: Sendable>(_ value: T, on hub: EventHub) { hub.post(value) }
/// func announce<T: Announcement>(_ value: T, on hub: EventHub) { hub.post(value, as: (any Announcement).self) }
///
/// relay(announcement, on: hub)      // subscribers of Banner.self: inside relay, T is Banner
/// announce(announcement, on: hub)   // subscribers of (any Announcement).self
/// ```
///
/// A class instance held as its superclass is not opened: a generic function receives it as the superclass.
public final class EventHub: Sendable {
  let channels = LockedState<[ObjectIdentifier: Channel]>([:])

  /// Creates an empty hub.
  public init() {}

  /// Delivers `event` to the subscribers of its static type, `Event`.
  ///
  /// Immediate-context handlers run before `post` returns, unless another thread is delivering an event of the same
  /// type at the same moment or this is a post from inside a handler of the same type; then the event is queued
  /// behind the current one (see ``Output/send(_:)``).
  ///
  /// ```swift
  /// hub.post(CartChanged(itemCount: 3))
  /// hub.post(banner, as: (any Announcement).self)   // to the subscribers of the protocol
  /// ```
  ///
  /// `Event` is the type the compiler sees at the call site: an existential argument such as an `any Announcement`
  /// is posted as `any Announcement`, not as the type of the value inside it. Inside a generic function that
  /// received the existential as `T`, `T` is the type of the value inside; pass `type` there to post as the
  /// protocol (see "Routing by static type").
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - type: The type whose subscribers receive it; the static type of `event` by default. Pass a protocol
  ///     existential or a superclass to reach its subscribers with a value of a conforming or derived type.
  /// - Complexity: O(1) to find the channel, then O(*n*) for *n* subscribers of `Event`. Creates nothing when
  ///   `Event` has no subscribers.
  public func post<Event: Sendable>(_ event: Event, as type: Event.Type = Event.self) {
    // `type` is not read: `Event` is. Its presence keeps Swift from opening an existential argument (an
    // `any Announcement` would otherwise bind `Event` to the dynamic type of the value inside), so routing follows
    // the static type at the call site, as documented.
    let output = channels.withLock { $0[ObjectIdentifier(Event.self)]?.output }
    guard let output else { return }
    // Every channel stored under `ObjectIdentifier(Event.self)` is an `Output<Event>` (see `withChannel`).
    unsafeDowncast(output, to: Output<Event>.self).send(event)
  }

  /// The events of one type as an ``EventStream``, so operators, observers and recorders work with the hub.
  ///
  /// ```swift
  /// hub.events(of: CartChanged.self).map(\.itemCount).removeDuplicates().subscribe(badge) { badge, count in
  ///   badge.show(count)
  /// }
  /// ```
  ///
  /// Reading it creates nothing; the channel appears with the first subscription.
  ///
  /// - Parameter type: The event type.
  /// - Returns: A stream that subscribes to `type` on this hub.
  public func events<Event: Sendable>(of type: Event.Type) -> Events<Event> {
    Events(hub: self)
  }

  /// The number of live subscribers of `type`: not cancelled, and whose responder, if any, is alive.
  ///
  /// Reading it only counts, and creates nothing. A channel whose last responder deinitialised is released when the
  /// next event of `type` finds it gone, at a periodic sweep, or by ``pruneDeadSubscribers()``.
  ///
  /// - Parameter type: The event type.
  public func subscriberCount<Event: Sendable>(for type: Event.Type) -> Int {
    let output = channels.withLock { $0[ObjectIdentifier(Event.self)]?.output }
    guard let output else { return 0 }
    return unsafeDowncast(output, to: Output<Event>.self).subscriberCount
  }

  /// Removes every subscription, of every event type, whose responder has deinitialised, and releases the channels
  /// that are left without subscribers.
  ///
  /// A hub notices a deinitialised responder only when it next touches its subscription: the next event of its type,
  /// or a periodic sweep on subscribe. A type that is rarely posted keeps its channel until then. Call this where you
  /// know responders went away, such as after a screen closed, to free them at once.
  ///
  /// ```swift
  /// settingsScreen = nil           // its subscriptions are dead, but not noticed yet
  /// hub.pruneDeadSubscribers()     // noticed: removed, and a channel nobody else uses is released
  /// ```
  ///
  /// - Complexity: O(*n*) for *n* subscriptions on the hub.
  public func pruneDeadSubscribers() {
    let outputs = channels.withLock { $0.values.map(\.output) }
    // Removing a channel's last subscription calls the hub back (see `withChannel`), which releases the channel.
    for output in outputs {
      output.pruneDeadEntries()
    }
  }

  /// The number of event types that currently have a channel. Only counts. For tests and debugging.
  var channelCount: Int {
    channels.withLock { $0.count }
  }
}

// MARK: - Subscribing

extension EventHub {
  /// Subscribes `responder`, held weakly, to the events of `type`.
  ///
  /// ```swift
  /// hub.subscribe(UserSignedIn.self, profileCache) { cache, event in cache.load(user: event.id) }
  /// ```
  ///
  /// The hub's subscribing methods are those of an ``EventStream``, with the event type in front: this one is
  /// `hub.events(of: type).subscribe(responder, on: context, handler)`, and
  /// ``EventStream/subscribe(_:on:fileID:line:_:)-(_,DeliveryContext,_,_,_)`` documents its other parameters. The
  /// hub's other forms document only what differs from this one.
  ///
  /// - Returns: A handle that can end the subscription early. Dropping it does not end the subscription.
  /// - Complexity: O(1) amortised.
  @discardableResult
  public func subscribe<Event: Sendable, Responder: AnyObject & Sendable>(
    _ type: Event.Type,
    _ responder: Responder,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    events(of: type).subscribe(responder, on: context, fileID: fileID, line: line, handler)
  }

  /// Subscribes `handler` to the events of `type`, token-owned: until the returned ``EventSubscription`` is cancelled
  /// or released, so keep it. Otherwise as ``subscribe(_:_:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  public func subscribe<Event: Sendable>(
    _ type: Event.Type,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    events(of: type).subscribe(on: context, fileID: fileID, line: line, handler)
  }

  /// Subscribes `responder`, held weakly, to the events of `type` with a `@MainActor` handler that runs on the main
  /// actor. Otherwise as ``subscribe(_:_:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  @discardableResult
  public func subscribe<Event: Sendable, Responder: AnyObject & Sendable>(
    _ type: Event.Type,
    _ responder: Responder,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor (Responder, Event) -> Void
  ) -> ResponderSubscription {
    events(of: type).subscribe(responder, on: context, fileID: fileID, line: line, handler)
  }

  /// Subscribes `handler` to the events of `type` on the main actor, token-owned: until the returned
  /// ``EventSubscription`` is cancelled or released. Otherwise as
  /// ``subscribe(_:_:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  public func subscribe<Event: Sendable>(
    _ type: Event.Type,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ handler: @escaping @MainActor (Event) -> Void
  ) -> EventSubscription {
    events(of: type).subscribe(on: context, fileID: fileID, line: line, handler)
  }

  /// Subscribes an ``EventResponder``, held weakly, to the events of `type`: its `handle(event:)` receives each one.
  /// Otherwise as ``subscribe(_:_:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  @discardableResult
  public func subscribe<Responder: EventResponder>(
    _ type: Responder.Event.Type,
    _ responder: Responder,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event: Sendable {
    events(of: type).subscribe(responder, on: context, fileID: fileID, line: line)
  }

  /// Subscribes a ``MainActorEventResponder``, held weakly, to the events of `type`: its `handle(event:)` runs on the
  /// main actor. Otherwise as ``subscribe(_:_:on:fileID:line:_:)-(_,_,DeliveryContext,_,_,_)``.
  @discardableResult
  public func subscribe<Responder: MainActorEventResponder>(
    _ type: Responder.Event.Type,
    _ responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event: Sendable {
    events(of: type).subscribe(responder, fileID: fileID, line: line)
  }

  /// Subscribes a ``MainActorEventResponder`` to the events of `type` on `.main`, spelled out: the same as
  /// `subscribe(type, responder)`.
  @discardableResult
  public func subscribe<Responder: MainActorEventResponder>(
    _ type: Responder.Event.Type,
    _ responder: Responder,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event: Sendable {
    events(of: type).subscribe(responder, on: context, fileID: fileID, line: line)
  }
}

extension EventHub {
  /// Unavailable: a ``MainActorEventResponder`` handles events on the main actor, so it is subscribed with
  /// `subscribe(type, responder, on: .main)` or `subscribe(type, responder)`, never on `.immediate` or a queue,
  /// `.queue(.main)` included.
  @available(
    *, unavailable,
    message: "a MainActorEventResponder runs on the main actor: write subscribe(type, responder, on: .main)"
  )
  @discardableResult
  public func subscribe<Responder: MainActorEventResponder>(
    _ type: Responder.Event.Type,
    _ responder: Responder,
    on context: DeliveryContext,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription where Responder.Event: Sendable {
    subscribe(type, responder, fileID: fileID, line: line)
  }
}
