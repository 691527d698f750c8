import Dispatch

/// Where a subscription's handler runs (G11).
///
/// Whatever the context, one subscriber receives the events of an output one at a time and in the order they were
/// sent.
///
/// ```swift
/// output.subscribe(logger) { logger, event in logger.log(event) }                 // .immediate
/// output.subscribe(store, on: .queue(storeQueue)) { store, event in store.apply(event) }
/// output.subscribe(screen, on: .main) { screen, event in screen.render(event) }  // @MainActor handler
/// ```
public struct DeliveryContext: Sendable {
  enum Kind: Sendable {
    case immediate
    case mainActor
    case queue(DispatchQueue)
  }

  let kind: Kind

  /// The handler runs on the thread that delivers the event, before `send` returns (unless that send was queued
  /// behind another delivery, G2). The cheapest context, and the default.
  public static let immediate = DeliveryContext(kind: .immediate)

  /// The handler runs on `queue`. Events for one subscriber are handed to the queue in order and run one at a time,
  /// even on a concurrent queue. A cancelled subscription's queued events are dropped.
  ///
  /// - Parameter queue: The queue the handler runs on, serial or concurrent.
  /// - Returns: The context.
  public static func queue(_ queue: DispatchQueue) -> DeliveryContext {
    DeliveryContext(kind: .queue(queue))
  }
}

/// The main-actor delivery context: `subscribe(_:on: .main) { … }` takes a `@MainActor` handler.
///
/// When the event is sent on the main actor (the main queue, whatever thread serves it) and nothing is waiting for
/// this subscriber, the handler runs at once (so a keyboard notification can be answered inside the animation it
/// announces); otherwise the event is queued on the main queue. Either way the subscriber sees its events in order.
public enum MainActorContext: Sendable {
  /// Deliver on the main actor.
  case main
}
