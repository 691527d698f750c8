#if DEBUG
  extension Output {
    /// Notes that `bind(to:)`, called at `site`, is about to start the view model whose output this is.
    func noteBindingStart(at site: CallSite) {
      storage.state.withLock { $0.bindingStart = site }
    }

    /// Where `bind(to:)` started the view model whose output this is, if it did.
    var bindingStart: CallSite? {
      storage.state.withLock { $0.bindingStart }
    }
  }
#endif
