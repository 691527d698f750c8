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
  /// After the call, both directions are delivered on the main actor (G11):
  /// - the view's ``output`` reaches the view model's ``EventViewModel/handle(event:)``;
  /// - the view model's ``EventViewModel/output`` reaches the view's ``handle(event:)``.
  ///
  /// An event sent on the main actor with nothing waiting ahead of it is delivered at once, inside the `send`;
  /// otherwise it goes through the main queue, in order. So a view model may send from any thread, and a
  /// `@MainActor` view model (conforming with `@MainActor EventViewModel`) is only ever called on the main actor.
  ///
  /// - the view keeps the view model alive in ``viewModel``; neither subscription keeps anything alive, so
  ///   releasing the view releases both and there is no retain cycle.
  ///
  /// Binding the view to the view model it is already bound to does nothing: `setupBindings()` and `start()` are
  /// called once. Binding it to another view model replaces the binding: the old view model is disconnected in both
  /// directions and released by the view, the new one is connected and started, and `setupBindings()`, which
  /// already ran, is not called again. A view model drives one view; give each view its own.
  ///
  /// In a test, create an ``EventRecorder`` of the view model's output before binding: `start()` runs inside this
  /// call, and what it sends reaches only the subscribers already there. In a debug build, a recorder created on the
  /// output after the binding started it writes an `EventBus warning:` line saying so.
  ///
  /// - Parameters:
  ///   - viewModel: The view model, or an ``AnyEventViewModel`` wrapping one.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
  public func bind<ViewModel: EventViewModel>(
    to viewModel: ViewModel,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ViewModel.ViewEvent == ViewEvent, ViewModel.ViewModelEvent == ViewModelEvent {
    let binding = AnyEventViewModel(viewModel)
    let previous = self.viewModel
    if let previous, previous.isBound, previous.base === binding.base {
      return
    }
    let isFirstBinding = !(previous?.isBound ?? false)
    // Cut the previous view model off before the new one starts, so nothing reaches both.
    previous?.disconnect()
    binding.connect(
      toViewOutput: output, fileID: fileID, line: line,
      and: binding.output.subscribe(self, on: .main, fileID: fileID, line: line) { view, event in
        view.handle(event: event)
      })
    self.viewModel = binding
    if isFirstBinding {
      setupBindings()
    }
    #if DEBUG
      binding.output.noteBindingStart(at: CallSite(fileID: fileID, line: line))
    #endif
    binding.start()
  }
}
