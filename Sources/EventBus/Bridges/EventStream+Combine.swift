// The Combine bridge. The same file is compiled in two places: here, in the EventBus module, against Apple's Combine;
// and on Linux by the Integration package, in a module of its own against OpenCombine. That module defines
// EVENTBUS_BRIDGE_MODULE, so the file imports EventBus instead of being part of it, and uses public API only. The
// switch is that flag rather than `canImport(OpenCombine)`: in the Integration package's build, OpenCombine is
// importable while EventBus itself compiles, and EventBus must not pick it up.
#if EVENTBUS_BRIDGE_MODULE
  import EventBus
  import OpenCombine
#elseif canImport(Combine)
  import Combine
#endif

#if EVENTBUS_BRIDGE_MODULE || canImport(Combine)
  import Foundation

  extension EventStream {
    /// The events as a Combine publisher that never fails and never finishes.
    ///
    /// ```swift
    /// viewModel.output.publisher
    ///   .sink { event in print(event) }
    ///   .store(in: &cancellables)
    /// ```
    ///
    /// In SwiftUI, `.onReceive(viewModel.output.publisher) { event in … }`.
    ///
    /// Each Combine subscriber gets a token-owned subscription of its own, made when it first requests values and
    /// cancelled when its Combine subscription is cancelled or released. The delivery guarantees of the stream apply:
    /// a subscriber receives the events in the order they were sent, one at a time, on the thread that delivers them
    /// (add `receive(on:)` to move them to a scheduler). After `cancel()` returns, no later event reaches the
    /// subscriber.
    ///
    /// Demand works like `PassthroughSubject`'s: an event that arrives while the subscriber has no outstanding demand
    /// is not delivered to it, and not kept. `sink`, `assign` and `onReceive` request unlimited demand and so receive
    /// every event; put `buffer(size:prefetch:whenFull:)` in front of a subscriber that requests a few values at a
    /// time and must not miss any.
    public var publisher: AnyPublisher<Event, Never> {
      EventStreamPublisher(upstream: self).eraseToAnyPublisher()
    }
  }

  #if EVENTBUS_BRIDGE_MODULE
    // Retroactive only in the Integration package's bridge module, which stands in for EventBus on Linux.
    // swift-format-ignore: AvoidRetroactiveConformances
    extension EventSubscription: @retroactive Cancellable {}
  #else
    /// An ``EventSubscription`` is a Combine `Cancellable`: wrap it in `AnyCancellable` or keep it with Combine's.
    extension EventSubscription: Cancellable {}
  #endif

  extension EventSubscription {
    /// Keeps the subscription alive as long as the set of Combine cancellables holds it.
    ///
    /// ```swift
    /// var cancellables = Set<AnyCancellable>()
    /// viewModel.output.subscribe { event in print(event) }.store(in: &cancellables)
    /// Timer.publish(every: 1, on: .main, in: .common).autoconnect()
    ///   .sink { date in print(date) }
    ///   .store(in: &cancellables)
    /// ```
    ///
    /// Releasing the set, or removing the token from it, cancels the subscription.
    ///
    /// - Parameter set: The set that owns the token, typically a stored property of the subscriber.
    public func store(in set: inout Set<AnyCancellable>) {
      AnyCancellable(self).store(in: &set)
    }
  }

  /// The publisher behind ``EventStream/publisher``.
  private struct EventStreamPublisher<Upstream: EventStream>: Publisher {
    typealias Output = Upstream.Event
    typealias Failure = Never

    let upstream: Upstream

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
      let subscription = EventStreamSubscription(upstream: upstream, downstream: AnySubscriber(subscriber))
      subscriber.receive(subscription: subscription)
    }
  }

  /// One Combine subscriber's subscription to a stream.
  ///
  /// The subscriber is type-erased: a handler that captured a class generic over the subscriber's type would capture
  /// that type's metatype, which need not be `Sendable`.
  ///
  /// The stream's token-owned subscription is made on the first request, so that a subscriber that never asks for
  /// values costs nothing upstream. The stream never runs two handlers of one subscription at once, so `receive` is
  /// serialized; `request` and `cancel` may come from any thread and meet it under the lock. The downstream is called
  /// with no lock held: it may cancel, request more or send to the stream from inside `receive(_:)`.
  private final class EventStreamSubscription<Upstream: EventStream>: Subscription {
    typealias Downstream = AnySubscriber<Upstream.Event, Never>

    private struct State {
      /// `nil` once cancelled.
      var downstream: Downstream?
      var demand = Subscribers.Demand.none
      /// Set until the first request subscribes to it.
      var upstream: Upstream?
      var token: EventSubscription?
    }

    private let lock = NSLock()
    private var state: State

    init(upstream: Upstream, downstream: Downstream) {
      state = State(downstream: downstream, upstream: upstream)
    }

    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
      lock.lock()
      defer { lock.unlock() }
      return body(&state)
    }

    func request(_ demand: Subscribers.Demand) {
      // A request for no values is a subscriber's mistake; it changes nothing rather than trapping.
      guard demand > .none else { return }
      let upstream = withLock { state -> Upstream? in
        guard state.downstream != nil else { return nil }
        state.demand += demand
        defer { state.upstream = nil }
        return state.upstream
      }
      guard let upstream else { return }
      let token = upstream.subscribe { [weak self] event in self?.receive(event) }
      let isCancelled = withLock { state -> Bool in
        guard state.downstream != nil else { return true }
        state.token = token
        return false
      }
      if isCancelled { token.cancel() }
    }

    private func receive(_ event: Upstream.Event) {
      let downstream = withLock { state -> Downstream? in
        guard let downstream = state.downstream, state.demand > .none else { return nil }
        state.demand -= 1
        return downstream
      }
      guard let downstream else { return }
      let additional = downstream.receive(event)
      guard additional > .none else { return }
      withLock { state in
        if state.downstream != nil { state.demand += additional }
      }
    }

    func cancel() {
      // Taken out under the lock and released after it: the downstream subscriber, the stream and the token's
      // handler may each be the last reference to something whose deinit is user code.
      let (downstream, upstream, token) = withLock { state in
        defer { (state.downstream, state.upstream, state.token) = (nil, nil, nil) }
        return (state.downstream, state.upstream, state.token)
      }
      token?.cancel()
      _ = (downstream, upstream)
    }
  }

  // `state` is only read or written while `lock` is held.
  extension EventStreamSubscription: @unchecked Sendable {}
#endif
