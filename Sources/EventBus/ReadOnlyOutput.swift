/// A view of an ``Output`` that can subscribe but not send.
///
/// An owner keeps the output private and exposes this, so only it can send:
///
/// ```swift
/// final class SignInState {
///   private let output = Output<Bool>(replay: 1)
///   var isSignedIn: ReadOnlyOutput<Bool> { output.readOnly }
///   func signIn() { output.send(true) }
/// }
/// ```
public struct ReadOnlyOutput<Event: Sendable>: EventStream {
  private let output: Output<Event>

  init(_ output: Output<Event>) {
    self.output = output
  }

  /// The number of live subscribers of the underlying output.
  public var subscriberCount: Int { output.subscriberCount }

  /// The number of events queued behind the delivery in progress. See ``Output/pendingCount``.
  public var pendingCount: Int { output.pendingCount }

  /// Removes subscriptions whose responder has deinitialised. See ``Output/pruneDeadSubscribers()``.
  public func pruneDeadSubscribers() {
    output.pruneDeadSubscribers()
  }

  /// Returns once every event sent before the call has been delivered to every subscriber. See
  /// ``Output/waitUntilDelivered()``.
  public func waitUntilDelivered() async throws {
    try await output.waitUntilDelivered()
  }

  public func _subscribe<Responder: AnyObject & Sendable>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    output._subscribe(responder, on: context, at: callSite, handler)
  }

  public func _subscribe(
    on context: DeliveryContext,
    at callSite: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    output._subscribe(on: context, at: callSite, handler)
  }

  public func _subscribe<Responder: EventResponder>(
    _ responder: Responder,
    on context: DeliveryContext,
    at callSite: CallSite
  ) -> ResponderSubscription where Responder.Event == Event {
    output._subscribe(responder, on: context, at: callSite)
  }
}
