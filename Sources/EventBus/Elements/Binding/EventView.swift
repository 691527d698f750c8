/// A view driven by an ``EventViewModel``: it sends `ViewEvent`s on its ``output`` and renders the `ViewModelEvent`s
/// it receives in ``handle(event:)``.
///
/// ```swift
/// @MainActor final class CatalogView: EventView {
///   let output = Output<CatalogViewModel.ViewEvent>()
///   var viewModel: AnyEventViewModel<CatalogViewModel.ViewEvent, CatalogViewModel.ViewModelEvent>?
///
///   func setupBindings() { refreshButton.onTap = { [output] in output.send(.refreshTapped) } }
///
///   func handle(event: CatalogViewModel.ViewModelEvent) {
///     switch event {
///     case .title(let title): titleLabel.text = title
///     case .items(let items): list.show(items)
///     case .loading(let isLoading): spinner.isHidden = !isLoading
///     case .failed(let message): showAlert(message)
///     }
///   }
/// }
///
/// let view = CatalogView()
/// view.bind(to: CatalogViewModel())
/// ```
///
/// The names avoid SwiftUI's `View`. The view stores its view model in ``viewModel``, which ``bind(to:fileID:line:)`` fills in;
/// that stored property replaces the associated objects an Objective-C runtime would use, so binding works on Linux.
@MainActor
public protocol EventView<ViewEvent, ViewModelEvent>: AnyObject, Sendable {
  /// What the view tells its view model.
  associatedtype ViewEvent: Sendable
  /// What the view model tells the view.
  associatedtype ViewModelEvent: Sendable

  /// Where the view sends its events. The bound view model receives them on the main actor.
  var output: Output<ViewEvent> { get }

  /// The bound view model, kept alive by the view. Set by ``bind(to:fileID:line:)``.
  ///
  /// Setting it to `nil` releases the view model and disconnects it from the view in both directions; a later
  /// ``bind(to:fileID:line:)`` is then a first binding again and calls ``setupBindings()``.
  var viewModel: AnyEventViewModel<ViewEvent, ViewModelEvent>? { get set }

  /// Renders one event from the view model. Always called on the main actor.
  ///
  /// - Parameter event: The view model's event.
  func handle(event: ViewModelEvent)

  /// Connects the view's own controls to ``output``. ``bind(to:fileID:line:)`` calls it once, before the view model's
  /// ``EventViewModel/start()``.
  ///
  /// Optional: the default does nothing, for a view whose controls are connected elsewhere or that has none.
  func setupBindings()
}

extension EventView {
  /// Does nothing.
  public func setupBindings() {}
}
