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

  @discardableResult
  public func subscribe<Responder: AnyObject>(
    _ responder: Responder,
    on context: DeliveryContext,
    at location: SourceLocation,
    _ handler: @escaping @Sendable (Responder, Event) -> Void
  ) -> ResponderSubscription {
    output.subscribe(responder, on: context, at: location, handler)
  }

  public func subscribe(
    on context: DeliveryContext,
    at location: SourceLocation,
    _ handler: @escaping @Sendable (Event) -> Void
  ) -> Subscription {
    output.subscribe(on: context, at: location, handler)
  }
}
