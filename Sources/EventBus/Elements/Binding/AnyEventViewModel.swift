/// Any ``EventViewModel`` with the given event types, so a view can store "some view model with these events"
/// without naming its class.
///
/// ```swift
/// @MainActor final class CatalogView: EventView {
///   var viewModel: AnyEventViewModel<CatalogViewEvent, CatalogViewModelEvent>?   // a real one, or a test double
///   …
/// }
/// ```
///
/// It forwards ``output``, ``handle(event:)`` and ``start()`` to the wrapped view model and keeps it alive.
/// Wrapping an `AnyEventViewModel` again wraps the original view model, not the wrapper.
///
/// The instance that ``EventView/bind(to:fileID:line:)`` stores in a view also owns that binding: releasing it (setting the
/// view's `viewModel` to `nil`, or binding another view model) disconnects the view and the view model in both
/// directions.
///
/// It lives on the main actor, as the view that holds it does: the binding calls it only there.
@MainActor
public final class AnyEventViewModel<ViewEvent: Sendable, ViewModelEvent: Sendable>: @MainActor EventViewModel {
  /// The wrapped view model.
  public let base: AnyObject
  private let outputOfBase: () -> Output<ViewModelEvent>
  private let handleOfBase: (ViewEvent) -> Void
  private let startOfBase: () -> Void
  private let subscribeOnBehalfOfBase: ViewSubscriber
  /// The subscriptions that connect the view model and a view, when ``EventView/bind(to:fileID:line:)`` made them.
  private var bindingSubscriptions: [ResponderSubscription] = []
  /// What a view's output delivers to on the view model's behalf: kept here, as outputs hold responders weakly.
  private var viewOutputResponder: AnyObject?

  /// Subscribes a binding to a view's output (at the given file and line) through a responder named after the
  /// wrapped view model's type, and returns the subscription and the responder.
  private typealias ViewSubscriber =
    @MainActor (
      _ binding: AnyEventViewModel, _ output: Output<ViewEvent>, _ fileID: StaticString, _ line: UInt
    ) -> (ResponderSubscription, AnyObject)

  /// Wraps `viewModel`, keeping it alive.
  ///
  /// - Parameter viewModel: The view model; if it is itself an `AnyEventViewModel`, the view model it wraps.
  public init<ViewModel: EventViewModel>(_ viewModel: ViewModel)
  where ViewModel.ViewEvent == ViewEvent, ViewModel.ViewModelEvent == ViewModelEvent {
    if let erased = viewModel as? AnyEventViewModel {
      base = erased.base
      outputOfBase = erased.outputOfBase
      handleOfBase = erased.handleOfBase
      startOfBase = erased.startOfBase
      subscribeOnBehalfOfBase = erased.subscribeOnBehalfOfBase
    } else {
      base = viewModel
      outputOfBase = { viewModel.output }
      handleOfBase = { viewModel.handle(event: $0) }
      startOfBase = { viewModel.start() }
      subscribeOnBehalfOfBase = Self.subscriber(named: ViewModel.self)
    }
  }

  /// A ``ViewSubscriber`` whose responder's type names `ViewModel`, so that a view's `output.debugDescription` lists
  /// `BoundViewModel<CatalogViewModel>`, not this wrapper.
  private static func subscriber<ViewModel>(named _: ViewModel.Type) -> ViewSubscriber {
    { binding, output, fileID, line in
      let responder = BoundViewModel<ViewModel>()
      let subscription = output.subscribe(responder, on: .main, fileID: fileID, line: line) {
        [weak binding] _, event in
        binding?.handle(event: event)
      }
      return (subscription, responder)
    }
  }

  deinit {
    // The subscriptions are Sendable handles; cancelling them needs no isolation.
    for subscription in bindingSubscriptions {
      subscription.cancel()
    }
  }

  /// The wrapped view model's output.
  public var output: Output<ViewModelEvent> { outputOfBase() }

  /// Passes `event` to the wrapped view model.
  ///
  /// - Parameter event: The view's event.
  public func handle(event: ViewEvent) {
    handleOfBase(event)
  }

  /// Calls the wrapped view model's `start()`.
  public func start() {
    startOfBase()
  }

  /// Whether this instance holds the binding between a view and the view model.
  var isBound: Bool { !bindingSubscriptions.isEmpty }

  /// Connects the view model and a view in both directions: subscribes to the view's `output` on the view model's
  /// behalf, and takes ownership of that subscription and `fromViewModel`.
  func connect(
    toViewOutput output: Output<ViewEvent>, fileID: StaticString, line: UInt, and fromViewModel: ResponderSubscription
  ) {
    disconnect()
    let (toViewModel, responder) = subscribeOnBehalfOfBase(self, output, fileID, line)
    bindingSubscriptions = [toViewModel, fromViewModel]
    viewOutputResponder = responder
  }

  /// Cancels the subscriptions that connect a view and the view model.
  func disconnect() {
    let subscriptions = bindingSubscriptions
    bindingSubscriptions = []
    viewOutputResponder = nil
    for subscription in subscriptions {
      subscription.cancel()
    }
  }
}

/// What a view's output delivers to on behalf of a bound view model, named after the view model's type: a view's
/// `output.debugDescription` lists it as `responder BoundViewModel<CatalogViewModel>`. It holds nothing; its handler
/// reaches the binding.
@MainActor
final class BoundViewModel<ViewModel> {}
