/// A view model that talks to its view through two event enums: it receives `ViewEvent`s and publishes
/// `ViewModelEvent`s on its ``output``.
///
/// ```swift
/// final class CatalogViewModel: EventViewModel {
///   enum ViewEvent: Sendable { case refreshTapped, itemSwiped(Int) }
///   enum ViewModelEvent: Sendable { case title(String), items([String]), loading(Bool), failed(String) }
///
///   let output = Output<ViewModelEvent>()
///
///   func start() { output.send(.title("Catalog")); reload() }
///
///   func handle(event: ViewEvent) {
///     switch event {
///     case .refreshTapped: reload()
///     case .itemSwiped(let index): remove(at: index)
///     }
///   }
/// }
/// ```
///
/// The view model knows nothing of its view: ``EventView/bind(to:fileID:line:)`` connects the two. It is never given a reference
/// to the view, so it cannot keep the view alive.
///
/// A view model that lives on the main actor conforms with an isolated conformance (Swift 6.2 and later):
///
/// ```swift
/// @MainActor final class CatalogViewModel: @MainActor EventViewModel { … }
/// ```
public protocol EventViewModel<ViewEvent, ViewModelEvent>: AnyObject {
  /// What the view tells the view model: taps, swipes, text changes.
  associatedtype ViewEvent: Sendable
  /// What the view model tells the view: state to render, errors to show.
  associatedtype ViewModelEvent: Sendable

  /// Where the view model publishes its events. The bound view receives them on the main actor.
  var output: Output<ViewModelEvent> { get }

  /// Handles one event from the view. ``EventView/bind(to:fileID:line:)`` delivers it on the main actor.
  ///
  /// - Parameter event: The view's event.
  func handle(event: ViewEvent)

  /// Begins the view model's work (the first load, say). ``EventView/bind(to:fileID:line:)`` calls it once, on the main actor,
  /// after the view's ``EventView/setupBindings()``, so whatever it sends reaches a view that is ready.
  ///
  /// Optional: the default does nothing, for a view model that waits for the view's first event.
  func start()
}

extension EventViewModel {
  /// Does nothing.
  public func start() {}
}
