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

  /// Subscribes `responder` to the underlying output, held weakly, until it deinitialises or the subscription is
  /// cancelled.
  ///
  /// - Parameters:
  ///   - responder: The object that receives events. Never retained.
  ///   - context: Where `handler` runs.
  ///   - location: Where the subscription was made, for `debugDescription`.
  ///   - handler: Called with the responder and each event.
  /// - Returns: A handle that can end the subscription early. Dropping it does not end the subscription.
  /// - Complexity: As ``Output``'s: O(1) amortised.
  @discardableResult
  public func subscribe<Responder: AnyObject>(
    _ responder: Responder,
    on context: DeliveryContext,
    at location: CallSite,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    output.subscribe(responder, on: context, at: location, handler)
  }

  /// Subscribes `handler` to the underlying output until the returned token is cancelled or released.
  ///
  /// - Parameters:
  ///   - context: Where `handler` runs.
  ///   - location: Where the subscription was made, for `debugDescription`.
  ///   - handler: Called with each event.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: As ``Output``'s: O(1) amortised.
  public func subscribe(
    on context: DeliveryContext,
    at location: CallSite,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> EventSubscription {
    output.subscribe(on: context, at: location, handler)
  }
}
