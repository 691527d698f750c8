extension EventView {
  /// Connects this view and `viewModel` in both directions, then calls ``setupBindings()`` and the view model's
  /// ``EventViewModel/start()``.
  ///
  /// ```swift
  /// let view = CatalogView()
  /// let viewModel = CatalogViewModel(loader: loader)
  /// view.bind(to: viewModel)
  /// ```
  ///
  /// After the call:
  /// - the view's ``output`` reaches the view model's ``EventViewModel/handle(event:)`` on the sending thread;
  /// - the view model's ``EventViewModel/output`` reaches the view's ``handle(event:)`` on the main actor, at once
  ///   when the view model sends on the main thread, through the main queue otherwise;
  /// - the view keeps the view model alive in ``viewModel``; neither subscription keeps anything alive, so
  ///   releasing the view releases both and there is no retain cycle.
  ///
  /// Binding the view to the view model it is already bound to does nothing: `setupBindings()` and `start()` are
  /// called once. Binding it to another view model replaces the binding: the old view model is disconnected in both
  /// directions and released by the view, the new one is connected and started, and `setupBindings()`, which
  /// already ran, is not called again. A view model drives one view; give each view its own.
  ///
  /// - Parameter viewModel: The view model, or an ``AnyEventViewModel`` wrapping one.
  public func bind<ViewModel: EventViewModel>(to viewModel: ViewModel)
  where ViewModel.ViewEvent == ViewEvent, ViewModel.ViewModelEvent == ViewModelEvent {
    let binding = AnyEventViewModel(viewModel)
    let previous = self.viewModel
    if let previous, previous.isBound, previous.base === binding.base {
      return
    }
    let isFirstBinding = !(previous?.isBound ?? false)
    // Cut the previous view model off before the new one starts, so nothing reaches both.
    previous?.disconnect()
    binding.connect([
      output.subscribe(binding) { viewModel, event in viewModel.handle(event: event) },
      binding.output.subscribe(self, on: .main) { view, event in view.handle(event: event) },
    ])
    self.viewModel = binding
    if isFirstBinding {
      setupBindings()
    }
    binding.start()
  }
}
