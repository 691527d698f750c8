import Dispatch

/// Where a subscription's handler runs (G11), and, off the sending thread, how many events may wait for it.
///
/// Whatever the context, one subscriber receives the events of an output one at a time and in the order they were
/// sent.
///
/// ```swift
/// output.subscribe(logger) { logger, event in logger.log(event) }                 // .immediate
/// output.subscribe(store, on: .queue(storeQueue)) { store, event in store.apply(event) }
/// output.subscribe(screen, on: .main) { screen, event in screen.render(event) }  // @MainActor handler
/// output.subscribe(sink, on: .queue(logQueue, bufferingPolicy: .bufferingNewest(1_000))) { sink, event in
///   sink.write(event)
/// }
/// ```
public struct DeliveryContext: Sendable {
  enum Kind: Sendable {
    case immediate
    case mainActor
    case queue(DispatchQueue)
  }

  /// How many events may wait for one subscriber delivered off the sending thread, and which go when more arrive.
  ///
  /// The names are `AsyncStream.Continuation.BufferingPolicy`'s. A subscriber that keeps up never waits for more than a
  /// burst, and never loses an event, whatever its policy; one that falls behind keeps what its policy says, and every
  /// event it loses is counted (`droppedCount` on its subscription) and told to it, before the next event it receives,
  /// through the context's `onLag` (the Runtime Behavior article, "When a subscriber can't keep up").
  ///
  /// ```swift
  /// progress.subscribe(bar, on: .main(bufferingPolicy: .latest)) { bar, value in bar.show(value) }
  /// ```
  public enum BufferingPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Keeps every event, however many wait: the default, as it was before policies existed. Debug builds warn
    /// once when more than 100,000 wait.
    case unbounded
    /// Keeps the oldest `n` events that wait and drops each newer one while `n` wait. `n` below 1 counts as 1.
    case bufferingOldest(Int)
    /// Keeps the newest `n` events that wait, dropping the oldest to make room. `n` below 1 counts as 1.
    case bufferingNewest(Int)

    /// Keeps only the newest event that waits: `bufferingNewest(1)`. For state a screen draws, where only the last
    /// value counts.
    public static var latest: BufferingPolicy { .bufferingNewest(1) }

    /// How many events may wait, or `nil` for no limit.
    var limit: Int? {
      switch self {
      case .unbounded: nil
      case .bufferingOldest(let limit), .bufferingNewest(let limit): Swift.max(1, limit)
      }
    }

    /// `unbounded`, `newest 100`, `oldest 100` or `latest`, as `debugDescription` shows it.
    public var description: String {
      switch self {
      case .unbounded: "unbounded"
      case .bufferingNewest(let limit) where Swift.max(1, limit) == 1: "latest"
      case .bufferingNewest(let limit): "newest \(Swift.max(1, limit))"
      case .bufferingOldest(let limit): "oldest \(Swift.max(1, limit))"
      }
    }
  }

  let kind: Kind
  /// How many events may wait for the subscriber; only queue and main-actor delivery have a queue to bound.
  let bufferingPolicy: BufferingPolicy
  /// Told, before the next event the subscriber receives, how many it missed since the last one.
  let onLag: (@Sendable (Int) -> Void)?

  init(kind: Kind, bufferingPolicy: BufferingPolicy = .unbounded, onLag: (@Sendable (Int) -> Void)? = nil) {
    self.kind = kind
    self.bufferingPolicy = bufferingPolicy
    self.onLag = onLag
  }

  /// The handler runs on the thread that delivers the event, before `send` returns (unless that send was queued
  /// behind another delivery, G2). The cheapest context, and the default. Nothing waits, so nothing is bounded.
  public static let immediate = DeliveryContext(kind: .immediate)

  /// The handler runs on `queue`. Events for one subscriber are handed to the queue in order and run one at a time,
  /// even on a concurrent queue. A cancelled subscription's queued events are dropped. Every event that waits is kept:
  /// ``queue(_:bufferingPolicy:onLag:)`` bounds them.
  ///
  /// - Parameter queue: The queue the handler runs on, serial or concurrent.
  /// - Returns: The context.
  public static func queue(_ queue: DispatchQueue) -> DeliveryContext {
    DeliveryContext(kind: .queue(queue))
  }

  /// The handler runs on `queue`, as ``queue(_:)``, and at most as many events wait for it as `bufferingPolicy` says.
  ///
  /// ```swift
  /// output.subscribe(sink, on: .queue(logQueue, bufferingPolicy: .bufferingNewest(1_000))) { sink, line in
  ///   sink.write(line)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - queue: The queue the handler runs on, serial or concurrent.
  ///   - bufferingPolicy: How many events may wait for the subscriber. A bounded subscriber gets a block of its own on
  ///     `queue` per burst, where unbounded ones share one.
  ///   - onLag: Called on `queue`, before the next event the subscriber receives, with how many events its policy
  ///     dropped since the last one it received. Not called for events dropped because the subscription was cancelled.
  /// - Returns: The context.
  public static func queue(
    _ queue: DispatchQueue, bufferingPolicy: BufferingPolicy, onLag: (@Sendable (Int) -> Void)? = nil
  ) -> DeliveryContext {
    DeliveryContext(kind: .queue(queue), bufferingPolicy: bufferingPolicy, onLag: onLag)
  }
}

/// The main-actor delivery context: `subscribe(_:on: .main) { … }` takes a `@MainActor` handler.
///
/// When the event is sent on the main actor (the main queue, whatever thread serves it) and nothing is waiting for
/// this subscriber, the handler runs at once (so a keyboard notification can be answered inside the animation it
/// announces); otherwise the event is queued on the main queue. Either way the subscriber sees its events in order.
///
/// ```swift
/// output.subscribe(screen, on: .main) { screen, event in screen.render(event) }
/// progress.subscribe(bar, on: .main(bufferingPolicy: .latest)) { bar, value in bar.show(value) }
/// ```
public struct MainActorContext: Sendable {
  let bufferingPolicy: DeliveryContext.BufferingPolicy
  let onLag: (@MainActor (Int) -> Void)?

  /// Deliver on the main actor, keeping every event that waits.
  public static let main = MainActorContext(bufferingPolicy: .unbounded, onLag: nil)

  /// Deliver on the main actor, keeping what `bufferingPolicy` says when the main actor falls behind.
  ///
  /// - Parameters:
  ///   - bufferingPolicy: How many events may wait for the subscriber. A bounded subscriber gets a block of its own
  ///     on the main queue per burst, where unbounded ones share one.
  ///   - onLag: Called on the main actor, before the next event the subscriber receives, with how many events its
  ///     policy dropped since the last one it received.
  /// - Returns: The context.
  public static func main(
    bufferingPolicy: DeliveryContext.BufferingPolicy, onLag: (@MainActor (Int) -> Void)? = nil
  ) -> MainActorContext {
    MainActorContext(bufferingPolicy: bufferingPolicy, onLag: onLag)
  }

  /// The context a stream's `_subscribe` is given for a main-actor subscription.
  var deliveryContext: DeliveryContext {
    DeliveryContext(
      kind: .mainActor, bufferingPolicy: bufferingPolicy, onLag: onLag.map { MainQueue.uncheckedHandler($0) })
  }
}
