extension Broadcaster {
  /// Removes every subscription whose responder has deinitialised and, if no subscriber is left, disconnects the
  /// source before returning.
  ///
  /// A broadcaster notices a deinitialised responder only when it next touches its subscription: the next upstream
  /// event, or a periodic sweep on subscribe. A quiet source keeps its upstream connection until then. Call this
  /// where you know screens went away, such as after a dismissal, to release the connection at once.
  ///
  /// ```swift
  /// checkoutScreen = nil                  // its keyboard subscription is dead, but not noticed yet
  /// keyboard.pruneDeadSubscribers()       // noticed: the keyboard observers are removed if nobody else listens
  /// ```
  ///
  /// If another thread is starting or stopping the source at that moment, that thread disconnects as soon as it
  /// finishes, as it does after `cancel()`.
  ///
  /// - Complexity: O(*n*), plus the source's `stop` if it disconnects.
  public func pruneDeadSubscribers() {
    // Removing a subscription notifies the broadcaster, which disconnects if it was the last one.
    fanOut.output.pruneDeadSubscribers()
  }
}
