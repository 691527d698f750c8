/// An object that handles one kind of event in one method, with a `switch`.
///
/// ```swift
/// final class Analytics: EventResponder {
///   func handle(event: ViewModelEvent) {
///     switch event {
///     case .loading: break
///     case .failed(let error): record(error)
///     }
///   }
/// }
/// output.subscribe(analytics)   // held weakly; ends when `analytics` deinitialises
/// ```
///
/// Its `handle(event:)` runs on the thread that delivers (or on the subscription's queue), so a responder is
/// `Sendable`: immutable, or with its mutable state behind a lock. A responder that lives on the main actor adopts
/// ``MainActorEventResponder`` instead.
public protocol EventResponder<Event>: AnyObject, Sendable {
  /// The events the responder handles, usually an enum.
  associatedtype Event
  /// Called for each event, on the subscription's delivery context.
  func handle(event: Event)
}

/// An ``EventResponder`` that lives on the main actor: a view, a view controller, a UI-bound view model.
///
/// Subscribing one delivers on the main actor; no `assumeIsolated` is needed at the call site:
///
/// ```swift
/// @MainActor final class ProfileScreen: MainActorEventResponder {
///   func handle(event: ProfileViewModel.Event) { … }
/// }
/// viewModel.output.subscribe(screen)
/// ```
@MainActor
public protocol MainActorEventResponder<Event>: AnyObject, Sendable {
  /// The events the responder handles, usually an enum.
  associatedtype Event
  /// Called for each event, on the main actor.
  func handle(event: Event)
}
