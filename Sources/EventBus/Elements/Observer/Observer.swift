/// Something that observes on behalf of an object and can be switched on and off: the Observer element.
///
/// A screen usually listens to several sources (the session, the keyboard, the network). Give each concern its own
/// observer, compose them with ``ObserverComposition``, and start and stop them all with the screen's lifecycle:
///
/// ```swift
/// final class SignInScreen {
///   private let observers = ObserverComposition()
///
///   init(session: SessionState, keyboard: Keyboard) {
///     observers.add(EventObserver(session.state, responder: self) { screen, state in screen.render(state) })
///     observers.add(EventObserver(keyboard.events, responder: self) { screen, event in screen.adjust(for: event) })
///   }
///
///   func didAppear() { observers.startObserving() }
///   func didDisappear() { observers.stopObserving() }
/// }
/// ```
///
/// Conforming types keep these promises:
/// - ``startObserving()`` is idempotent: calling it while observing changes nothing and never doubles deliveries.
/// - ``stopObserving()`` is idempotent, and once it has returned the observer delivers nothing more (a handler
///   already running on another thread may finish).
/// - An observer whose responder (the object it observes for) has gone away stops itself and cannot be restarted.
///
/// ``EventObserver`` is the ready-made one for any ``EventStream``.
public protocol Observer: AnyObject {
  /// Starts delivering events to the responder. Does nothing if already observing, or if the responder is gone.
  func startObserving()

  /// Stops delivering events. Does nothing if not observing.
  func stopObserving()
}
